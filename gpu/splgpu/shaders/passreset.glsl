// Clears the components' lowest pass keys and edges (ctl[6] components).
layout(std430, binding = 8) writeonly buffer Key { uint key[]; };
layout(std430, binding = 9) writeonly buffer Arg { uint arg[]; };

void main() {
	int c = cellIndex();
	if (c <= int(ctl[6])) { key[c] = 0xFFFFFFFFu; arg[c] = 0xFFFFFFFFu; }
}
