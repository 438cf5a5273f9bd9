#!/bin/bash
# ab.sh A B [RUNS]: the script report of views.script for the app binaries
# A and B (orogen-app), alternated A B A B ... RUNS times each (default 3),
# each run under its own Xvfb at 1600×1000 with a fresh HOME. Prints a
# line per run and view: frames/s mean and lowest second (from a second
# after the view command), the longest frame, the process's CPU a frame
# (all threads) and the part Mesa's llvmpipe threads took ("-": a build
# before the report had them), engine
# steps/s, the load average. Results stay in ${OUTDIR:-/tmp/llvmpipe-views}.
set -e
here=$(cd "$(dirname "$0")" && pwd)
a=$(realpath "$1"); b=$(realpath "$2"); runs=${3:-3}
out=${OUTDIR:-/tmp/llvmpipe-views}; mkdir -p "$out"
one() { # binary dir
	local d=$2 n=$((150 + RANDOM % 100)); rm -rf "$d"; mkdir -p "$d/home"
	Xvfb :$n -screen 0 1600x1000x24 -nolisten tcp >/dev/null 2>&1 & local xp=$!
	sleep 1
	sed "s#OUT#$d#" "$here/views.script" > "$d/s.script"
	DISPLAY=:$n HOME=$d/home "$1" --script "$d/s.script" --width 1600 --height 1000 > "$d/app.log" 2>&1 || echo "run $d failed: see $d/app.log"
	kill $xp; wait $xp 2>/dev/null || true
	for v in 2d 3d; do
		[ -f "$d/r$v.json" ] || continue
		jq -r --arg run "$(basename "$d")" --arg v "$v" --arg load "$(cut -d' ' -f1 /proc/loadavg)" \
			'[$run, $v, (.fps_mean_while_running*10|round/10), (.fps_min_while_running*10|round/10),
			  (.worst_frame_ms_while_running|round), (if .span_cpu_ms_per_draw then (.span_cpu_ms_per_draw*10|round/10) else "-" end),
			  (if .span_cpu_ms_per_draw then (.span_llvmpipe_ms_per_draw*10|round/10) else "-" end), (.engine_steps_per_s*100|round/100), $load] | @tsv' "$d/r$v.json"
	done
}
printf 'run\tview\tfps\tlowest\tlongest_ms\tcpu_ms/frame\tllvmpipe_ms/frame\tsteps/s\tload\n'
for i in $(seq 1 "$runs"); do
	one "$a" "$out/A$i"
	one "$b" "$out/B$i"
done
