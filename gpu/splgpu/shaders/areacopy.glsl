// The drainage counts kept for the snapshot (and the deposition's
// G·Qs/A), where erodedep does not write them.
layout(std430, binding = 7) readonly buffer A0b { uint area[]; };
layout(std430, binding = 13) writeonly buffer Cb { uint cnt[]; };

void main() {
	int i = cellIndex();
	if (i < P.n) cnt[i] = area[i];
}
