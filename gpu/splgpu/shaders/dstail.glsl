// Deposition, the contraction's last rounds in one work group
// (DepTail): dsrake's and dsjump's halves of each round over the list
// of the nodes left (dslist; slot 1 by place in the list), a barrier
// between them, until no node is left unsolved, with no dispatch a
// round: the rounds of a short list took little more than their two
// dispatches' fixed cost. Its rounds in ctl[15], 0 in ctl[0] when done;
// a list longer than TAILCAP nodes it leaves (0 rounds, 1 in ctl[0]).
shared uint tLeft;

void main() {
	uint t = gl_LocalInvocationIndex;
	uint off = ctl[CTL_LISTOFF];
	bool all = off == NOLIST;
	uint cnt = all ? uint(P.n) : ctl[CTL_LIST];
	if (all || cnt > uint(TAILCAP)) {
		// Too long for one group: nothing done, the host goes on with
		// the rounds over the grid or the list.
		if (t == 0u) {
			ctl[CTL_LISTNEXT] = 0u;
			ctl[CTL_ACTIVE] = 1u;
		}
		return;
	}
	uint r = 0u;
	bool more = true;
	while (more && r < uint(MAXTAIL)) {
		for (uint j = t; j < cnt; j += uint(LOCAL)) rake(lp[off + j], int(j));
		memoryBarrierBuffer();
		barrier();
		if (t == 0u) tLeft = 0u;
		barrier();
		for (uint j = t; j < cnt; j += uint(LOCAL)) {
			if (jump(lp[off + j], int(j))) tLeft = 1u;
		}
		memoryBarrierBuffer();
		barrier();
		more = tLeft != 0u;
		r++;
		barrier();
	}
	if (t == 0u) {
		ctl[CTL_LISTNEXT] = r;
		ctl[CTL_ACTIVE] = more ? 1u : 0u;
	}
}
