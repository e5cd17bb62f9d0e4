package raid

import "github.com/raidsim/raidsim/sim"

// notePlan tells the observer, if it listens, how stripe plan p of
// request r will bring the parity up to date.
func (a *Array) notePlan(r *sim.Request, p *StripePlan) {
	if a.obs == nil || a.obs.Plan == nil {
		return
	}
	var w int64
	for c := range p.Write {
		w += p.Write[c].Total()
	}
	a.obs.OnPlan(a.name, r, sim.StripePlan{Stripe: p.Stripe, Method: p.Method.String(),
		ParityMember: p.ParityMember, PreReadBytes: p.ReadBytes(), WriteBytes: w}, a.eng.Now())
}
