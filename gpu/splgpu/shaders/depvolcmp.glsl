// Deposition, per lake after depvol: counts the lakes whose volume
// changed since the last iteration, and makes the new volume the one the
// sums use (vp), clearing vn for the next.
layout(std430, binding = 12) buffer Pits { Pit pits[]; };

void main() {
	countBegin();
	int k = cellIndex();
	if (k < int(ctl[CTL_PITS])) {
		Pit p = pits[k];
		if (p.vnLo != p.vpLo || p.vnHi != p.vpHi) atomicAdd(groupCount, 1u);
		pits[k].vpLo = p.vnLo; pits[k].vpHi = p.vnHi;
		pits[k].vnLo = 0u; pits[k].vnHi = 0u;
	}
	countEnd(CTL_DEPCHANGED);
}
