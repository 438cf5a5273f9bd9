// Deposition, per pit (its lake): the lake's record from the lakes'
// arrays (its root, its pass cell, its spill max(h_pass, h_outflow) on
// the limited heights, volumes cleared) and its exit marked in the code
// word. deplevels then raises each level to its downstream lake's.
layout(std430, binding = 3) buffer Db { uint dcode[]; };
layout(std430, binding = 5) readonly buffer Roots { int roots[]; };
layout(std430, binding = 7) readonly buffer Pass { int pass[]; };
layout(std430, binding = 10) readonly buffer Out { int outflow[]; };
layout(std430, binding = 11) readonly buffer Hl { float hl[]; };
layout(std430, binding = 12) writeonly buffer Pits { Pit pits[]; };

void main() {
	int k = cellIndex();
	if (k >= int(ctl[CTL_PITS])) return;
	int c = pass[k];
	Pit p;
	p.root = roots[k];
	p.pass = c;
	p.lvl = -BIG;
	if (c >= 0) {
		p.lvl = hl[c];
		if (outflow[k] >= 0) p.lvl = max(p.lvl, hl[outflow[k]]);
		atomicOr(dcode[c], EXIT);
	}
	p.phi = 0.0;
	p.vpLo = 0u; p.vpHi = 0u; p.vnLo = 0u; p.vnHi = 0u;
	pits[k] = p;
}
