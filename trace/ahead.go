package trace

import (
	"errors"
	"io"
	"os"
	"runtime"
	"sync/atomic"
)

// Decompression runs on a goroutine of its own, a few buffers ahead of
// the parser: gzip costs about as much per record as parsing does and
// bzip2 several times more, so on two cores a compressed trace reads
// nearly as fast as a plain one. The bytes, and so the records and
// their errors, are the same and in the same order.

// Read-ahead buffers: aheadBuffers of aheadBufferBytes each, 1 MiB per
// open trace however long it is.
const (
	aheadBuffers     = 4
	aheadBufferBytes = 256 << 10
)

// aheadChunk is one buffer filled by the goroutine, with the error that
// ended it (nil, io.EOF, or the decompressor's).
type aheadChunk struct {
	b   []byte
	err error
}

// aheadStop stops the goroutine once: on Close, or when the reader is
// collected unclosed in mid-stream (NewReader's callers have nothing to
// close).
type aheadStop struct {
	stopped atomic.Bool
	done    chan struct{}
	exited  chan struct{}
}

// signal tells the goroutine to stop, once; it allocates nothing, so
// running as a cleanup it leaves allocation counts alone.
func (s *aheadStop) signal() {
	if s.stopped.CompareAndSwap(false, true) {
		close(s.done)
	}
}

func (s *aheadStop) stop() {
	s.signal()
	<-s.exited
}

// aheadReader reads what its goroutine decompressed.
type aheadReader struct {
	full    chan aheadChunk
	empty   chan []byte
	s       *aheadStop
	cleanup runtime.Cleanup // signals s if the reader is dropped in mid-stream
	buf     []byte          // the buffer being read, to hand back
	cur     []byte          // what is left of it
	err     error           // the error after cur
}

// newAheadReader starts reading src on a goroutine.
func newAheadReader(src io.Reader) *aheadReader {
	a := &aheadReader{full: make(chan aheadChunk, aheadBuffers), empty: make(chan []byte, aheadBuffers),
		s: &aheadStop{done: make(chan struct{}), exited: make(chan struct{})}}
	for range aheadBuffers {
		a.empty <- make([]byte, aheadBufferBytes)
	}
	go fillAhead(src, a.full, a.empty, a.s.done, a.s.exited)
	a.cleanup = runtime.AddCleanup(a, (*aheadStop).signal, a.s)
	return a
}

// fillAhead fills empty buffers from src and sends them in order until
// src ends or fails, or done closes.
func fillAhead(src io.Reader, full chan<- aheadChunk, empty <-chan []byte, done, exited chan struct{}) {
	defer close(exited)
	for {
		var b []byte
		select {
		case b = <-empty:
		case <-done:
			return
		}
		n, err := io.ReadFull(src, b)
		if errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, ErrTruncated) {
			err = io.EOF // a clean end within the buffer
		}
		select {
		case full <- aheadChunk{b[:n], err}:
		case <-done:
			return
		}
		if err != nil {
			return
		}
	}
}

// Read returns the decompressed bytes in order, then the error that
// ended them.
func (a *aheadReader) Read(p []byte) (int, error) {
	for len(a.cur) == 0 {
		if a.err != nil {
			return 0, a.err
		}
		if a.buf != nil {
			a.empty <- a.buf[:cap(a.buf)] // room for every buffer: never blocks
			a.buf = nil
		}
		c := <-a.full
		a.buf, a.cur, a.err = c.b, c.b, c.err
		if a.err != nil {
			a.cleanup.Stop() // the goroutine has ended
		}
	}
	n := copy(p, a.cur)
	a.cur = a.cur[n:]
	return n, nil
}

// Close stops the goroutine and waits for it; a Read after it fails.
func (a *aheadReader) Close() error {
	a.cleanup.Stop()
	a.s.stop()
	a.cur, a.err = nil, os.ErrClosed
	return nil
}

// aheadCloser closes a trace file opened by Open: the read-ahead
// first, then the file it reads.
type aheadCloser struct {
	ahead *aheadReader
	file  io.Closer
}

func (c aheadCloser) Close() error {
	c.ahead.Close()
	return c.file.Close()
}
