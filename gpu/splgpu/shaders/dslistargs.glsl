// Deposition, after dslist: the new list becomes the current one when
// all of it fitted the lists' words and slot 1's places (dsbuf.glsl;
// ctl[13] nodes from ctl[14]), else the
// current one stays (every cell while there is none, NOLIST); the
// rounds' work groups (x, y, z, split as cells() splits them) go to the
// indirect dispatch's arguments. One invocation.
layout(std430, binding = 4) writeonly buffer Args { uint args[]; };

void main() {
	if (gl_GlobalInvocationID.x != 0u) return;
	uint next = ctl[CTL_LISTNEXT];
	uint len = ctl[CTL_LIST], off = ctl[CTL_LISTOFF];
	uint base = off == NOLIST ? 0u : (len <= off ? 0u : off + len);
	uint room = uint(P.n / 4); // lists are on the lean layout only
	if (next <= room && base + next <= 2u * room) {
		ctl[CTL_LISTOFF] = base;
		ctl[CTL_LIST] = next;
	}
	ctl[CTL_LISTNEXT] = 0u;
	uint groups = (ctl[CTL_LISTOFF] == NOLIST ? uint(P.n) + 255u : ctl[CTL_LIST] + 255u) / 256u;
	uint gx = min(groups, 32768u);
	args[0] = gx;
	args[1] = gx == 0u ? 0u : (groups + gx - 1u) / gx;
	args[2] = 1u;
}
