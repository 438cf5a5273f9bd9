#!/bin/bash
# Xvfb (Mesa's GLX for the server) with NVIDIA's GLX for the app, then the
# app's script reports at 1024², 2048² (live steps) and 4096² (views,
# streaming and paused).
R=$PWD; X=$R/out/xroot
pkill Xvfb; rm -f /tmp/.X7-lock /tmp/.X11-unix/X7
# Not glvnd's libGLESv2: Ebitengine opens OpenGL ES first when it loads,
# then asks EGL for the X display, which fails under Xvfb.
for f in .gl/*.deb; do case $f in *libgles2*) ;; *) dpkg -x $f /;; esac; done
rm -f /usr/lib/x86_64-linux-gnu/libGLESv2.so*
mkdir -p $X; for f in .xb/*.deb; do dpkg -x $f $X; done
ldconfig
export LD_LIBRARY_PATH=$X/usr/lib/x86_64-linux-gnu:$X/lib/x86_64-linux-gnu:/usr/local/nvidia/lib64:/usr/local/nvidia/lib
ln -sf $X/usr/bin/xkbcomp /usr/bin/xkbcomp
mkdir -p /usr/lib/x86_64-linux-gnu/dri; ls /usr/lib/x86_64-linux-gnu/dri > $OUT/dri-before.txt; for f in $X/usr/lib/x86_64-linux-gnu/dri/*; do cp -af $f /usr/lib/x86_64-linux-gnu/dri/; done
mkdir -p /var/lib/xkb /tmp/.X11-unix
ls /usr/local/nvidia/lib64 /usr/local/nvidia/lib 2>/dev/null | grep -i -e glx -e egl > $OUT/nvlibs.txt
$X/usr/bin/Xvfb :7 -screen 0 1920x1080x24 -nolisten tcp -xkbdir $X/usr/share/X11/xkb -fp built-ins > $OUT/xvfb.log 2>&1 &
sleep 3
ldd /usr/lib/x86_64-linux-gnu/dri/swrast_dri.so $X/usr/bin/Xvfb | grep -i "not found" > $OUT/ldd-missing.txt 2>&1
LD_LIBRARY_PATH=$LD_LIBRARY_PATH $X/usr/bin/xkbcomp -version > $OUT/xkbcomp.txt 2>&1
export DISPLAY=:7 __GLX_VENDOR_LIBRARY_NAME=nvidia __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
gunzip -c .xb/orogen-app.gz > /tmp/orogen-app; chmod +x /tmp/orogen-app
run() { # name script size frames timeout
  mkdir -p $OUT/$1
  sed "s#\$SIZE#$3#; s#\$FR#$4#; s#\$OUT#$OUT/$1#" .xb/$2 > /tmp/$1.script
  ( sleep 25; p=$(pgrep -f /tmp/orogen-app | head -1); grep -o '/[^ ]*lib\(GLX\|EGL\|GL\)[^ ]*' /proc/$p/maps | sort -u > $OUT/$1/maps.txt; nvidia-smi > $OUT/$1/smi.txt ) &
  # A fresh HOME a run: no preferences carried from one run to the next.
  HOME=/tmp/apphome-$1; mkdir -p $HOME; timeout $5 /tmp/orogen-app --script /tmp/$1.script --width 1920 --height 1080 > $OUT/$1/app.log 2>&1
  echo "$1 rc=$?" >> $OUT/rc.txt
}
run w1024 live.script 1024 60 60
OROGEN_CPUPROFILE=$OUT/live2048.prof run live2048 live.script 2048 900 100
OROGEN_CPUPROFILE=$OUT/v4096.prof run v4096 views.script 4096 600 200
run v1024 views.script 1024 300 100
run p4096 views-paused.script 4096 300 150
cd $OUT && tar czf /tmp/res.tgz . && mv /tmp/res.tgz $OUT/res.tgz
