package exact

// c700Arrive handles an event at a 53C700-based controller.
func (s *Sim) c700Arrive(e *event) { s.fail("53C700 controller not simulated yet") }

// ctlrTransferDone handles a 53C700 controller's data transfer end.
func (s *Sim) ctlrTransferDone(e *event) { s.fail("53C700 controller not simulated yet") }
