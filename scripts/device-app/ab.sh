#!/bin/bash
# The views at 4096² (views.script: 2D, 3D and split while the engine
# streams, 450 frames a view) for several builds in one device call, in
# the order given, one process a run: bash .xb/ab.sh main branch main branch
# runs .xb/orogen-app-main.gz (or out/orogen-app-main.gz, unpacked there by
# the first call when the carry is short of room) and the branch's,
# alternated. Each run's reports, log and nvidia-smi (17 s in) go to
# $OUT/all.tgz under NAME or NAME2, NAME3 for repeats.
R=$PWD; X=$R/out/xroot; RES=/tmp/res; rm -rf $RES; mkdir -p $RES
# Not glvnd's libGLESv2: Ebitengine opens OpenGL ES first when it loads,
# then asks EGL for the X display, which fails under Xvfb.
for f in .gl/*.deb; do case $f in *libgles2*) ;; *) dpkg -x $f /;; esac; done
rm -f /usr/lib/x86_64-linux-gnu/libGLESv2.so*
mkdir -p $X; for f in .xb/*.deb; do dpkg -x $f $X; done
ldconfig
export LD_LIBRARY_PATH=$X/usr/lib/x86_64-linux-gnu:$X/lib/x86_64-linux-gnu:/usr/local/nvidia/lib64:/usr/local/nvidia/lib
ln -sf $X/usr/bin/xkbcomp /usr/bin/xkbcomp
mkdir -p /usr/lib/x86_64-linux-gnu/dri; for f in $X/usr/lib/x86_64-linux-gnu/dri/*; do cp -af $f /usr/lib/x86_64-linux-gnu/dri/; done
mkdir -p /var/lib/xkb /tmp/.X11-unix
$X/usr/bin/Xvfb :17 -screen 0 1920x1080x24 -nolisten tcp -xkbdir $X/usr/share/X11/xkb -fp built-ins > $RES/xvfb.log 2>&1 &
for i in $(seq 50); do [ -S /tmp/.X11-unix/X17 ] && break; sleep 0.2; done; sleep 1
export DISPLAY=:17 __GLX_VENDOR_LIBRARY_NAME=nvidia __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
declare -A seen
for b in "$@"; do
  [ -x /tmp/orogen-app-$b ] || { if [ -f out/orogen-app-$b.gz ]; then gunzip -c out/orogen-app-$b.gz; else gunzip -c .xb/orogen-app-$b.gz; fi > /tmp/orogen-app-$b; chmod +x /tmp/orogen-app-$b; }
  seen[$b]=$((${seen[$b]:-0} + 1)); name=$b; [ ${seen[$b]} -gt 1 ] && name=$b${seen[$b]}
  mkdir -p $RES/$name
  sed "s#\$SIZE#4096#; s#\$FR#450#; s#\$OUT#$RES/$name#" .xb/views.script > /tmp/$name.script
  ( sleep 17; nvidia-smi > $RES/$name/smi.txt ) &
  HOME=/tmp/apphome-$name; mkdir -p $HOME
  timeout 110 /tmp/orogen-app-$b --script /tmp/$name.script --width 1920 --height 1080 > $RES/$name/app.log 2>&1
  echo "$name rc=$? t=$SECONDS" >> $RES/rc.txt
done
cd $RES && tar czf $OUT/all.tgz .
