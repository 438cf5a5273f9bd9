package engines

import "testing"

// TestEstimateTwoAsFour: an output amplified ×2 is made from a ×4 run
// (sim/amplify), so it is estimated at least as the ×4.
func TestEstimateTwoAsFour(t *testing.T) {
	s := Spec{Kind: "grid", W: 512, H: 512}
	if two, four := EstimateBytes(s, 2), EstimateBytes(s, 4); two < four {
		t.Errorf("×2 estimated at %d bytes, under the ×4's %d", two, four)
	}
}
