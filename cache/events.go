package cache

import "github.com/raidsim/raidsim/sim"

// The cache's event handlers: one small type per event, holding the
// cache, bound once in New.
type (
	completeHandler struct{ c *Cache } // a host request's data is ready
	ackHandler      struct{ c *Cache } // a write absorbed in memory is acknowledged
	tickHandler     struct{ c *Cache } // the interval policy's period ends
	idleHandler     struct{ c *Cache } // the idle policy's quiet time ends
	rejectHandler   struct{ c *Cache } // a child the device below refused fails
)

func (h *completeHandler) HandleEvent(now sim.Time, arg any) { h.c.onComplete(now, arg) }
func (h *ackHandler) HandleEvent(now sim.Time, arg any)      { h.c.onAck(now, arg) }
func (h *tickHandler) HandleEvent(now sim.Time, arg any)     { h.c.onTick(now, arg) }
func (h *idleHandler) HandleEvent(now sim.Time, arg any)     { h.c.onIdle(now, arg) }
func (h *rejectHandler) HandleEvent(_ sim.Time, arg any)     { h.c.onChildDone(&arg.(*child).Request) }
