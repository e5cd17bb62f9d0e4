package sim

// JoinObservers returns an Observer that calls the hooks of each of obs
// in turn (nil ones skipped): several views of one run. It returns nil
// when none is given and the one itself when only one is.
func JoinObservers(obs ...*Observer) *Observer {
	var os []*Observer
	for _, o := range obs {
		if o != nil {
			os = append(os, o)
		}
	}
	switch len(os) {
	case 0:
		return nil
	case 1:
		return os[0]
	}
	return &Observer{
		Submitted: func(d string, r *Request, now Time) {
			for _, o := range os {
				o.OnSubmitted(d, r, now)
			}
		},
		Phase: func(d string, r *Request, p Phase, s, e Time) {
			for _, o := range os {
				o.OnPhase(d, r, p, s, e)
			}
		},
		Completed: func(d string, r *Request, now Time) {
			for _, o := range os {
				o.OnCompleted(d, r, now)
			}
		},
		Child: func(d string, p, c *Request, m int, now Time) {
			for _, o := range os {
				o.OnChild(d, p, c, m, now)
			}
		},
		Plan: func(d string, r *Request, p StripePlan, now Time) {
			for _, o := range os {
				o.OnPlan(d, r, p, now)
			}
		},
		Absorb: func(d string, r *Request, a Absorb, now Time) {
			for _, o := range os {
				if o.Absorb != nil {
					o.Absorb(d, r, a, now)
				}
			}
		},
		Destage: func(d string, c *Request, now Time) {
			for _, o := range os {
				o.OnDestage(d, c, now)
			}
		},
		Level: func(d, what string, v int64, now Time) {
			for _, o := range os {
				o.OnLevel(d, what, v, now)
			}
		},
		Position: func(d string, r *Request, p Position) {
			for _, o := range os {
				if o.Position != nil {
					o.Position(d, r, p)
				}
			}
		},
	}
}
