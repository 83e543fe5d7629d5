package session

// Initialize takes what the host says of itself and its sessions: the registry's directory, the judge's
// budget and the detectors for the sessions that set none, whether it forks and redraws.
func (s *Table) Initialize(p InitializeParams) error {
	if err := checkStoreDir(p); err != nil {
		return err
	}
	if err := checkBudget(p.JudgeBudget); err != nil {
		return err
	}
	if p.StoreDir != "" && s.opt.OpenStore != nil {
		st, err := s.opt.OpenStore(p.StoreDir)
		if err != nil {
			return invalid("params.storeDir: %s", err.Error())
		}
		s.mu.Lock()
		s.store = st
		s.mu.Unlock()
	}
	s.mu.Lock()
	if p.JudgeBudget != nil {
		s.budget = new(*p.JudgeBudget)
	}
	if p.Detectors != nil {
		s.detectors = *p.Detectors
	}
	if p.Capabilities != nil {
		s.canFork = p.Capabilities.Fork || s.opt.ForkAlways
		if p.Capabilities.Invalidate != nil {
			s.invalidates.Store(*p.Capabilities.Invalidate)
		}
	}
	s.mu.Unlock()
	return nil
}

// DebugPanic (debug.panic, only with TestHooks) changes the session, then panics, so the tests can prove
// the change is rolled back and the connection goes on. Without TestHooks it refuses, changing nothing: a
// caller of the API reaches it whether or not an adapter lists the method.
func (s *Table) DebugPanic(p SessionParams) error {
	if !s.opt.TestHooks {
		return requestFailed("debug.panic: the daemon runs without test hooks")
	}
	sess, err := s.sessionOf(p.Hook)
	if err != nil {
		return err
	}
	sess.event(func() {
		sess.dispatch(turnStartAction(s.Now(p.At)))
		panic("debug.panic: a handler failed mid-event")
	})
	return nil
}

// FlushAll writes every session's registry and waits for the writes: the socket daemon's exit.
func (s *Table) FlushAll() {
	s.mu.Lock()
	sessions := make([]*Session, 0, len(s.sessions))
	for _, sess := range s.sessions {
		sessions = append(sessions, sess)
	}
	s.mu.Unlock()
	for _, sess := range sessions {
		sess.flush()
	}
}
