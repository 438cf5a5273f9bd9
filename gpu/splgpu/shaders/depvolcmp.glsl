// Deposition, per lake after depvol: the new volume becomes the one the
// sums use (vp), vn cleared for the next step.
layout(std430, binding = 12) buffer Pits { Pit pits[]; };

void main() {
	int k = cellIndex();
	if (k < int(ctl[CTL_PITS])) {
		Pit p = pits[k];
		pits[k].vpLo = p.vnLo; pits[k].vpHi = p.vnHi;
		pits[k].vnLo = 0u; pits[k].vnHi = 0u;
	}
}
