package trace

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"runtime"
	"testing"
	"testing/iotest"
)

// TestAheadReaderBytes: the read-ahead gives the source's bytes in
// order, then the error that ended them, whatever the reads' sizes.
func TestAheadReaderBytes(t *testing.T) {
	data := make([]byte, 3*aheadBufferBytes+12345)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	got, err := io.ReadAll(newAheadReader(bytes.NewReader(data)))
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("ReadAll: %d bytes, %v; want %d bytes", len(got), err, len(data))
	}
	if err := iotest.TestReader(newAheadReader(bytes.NewReader(data)), data); err != nil {
		t.Fatal(err)
	}
	bad := errors.New("disk on fire")
	got, err = io.ReadAll(newAheadReader(io.MultiReader(bytes.NewReader(data[:1000]), iotest.ErrReader(bad))))
	if !errors.Is(err, bad) || !bytes.Equal(got, data[:1000]) {
		t.Fatalf("after an error: %d bytes, %v; want 1000 bytes then %v", len(got), err, bad)
	}
}

// zeros is an endless source.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// TestAheadReaderStops: Close stops the goroutine (and a later Read
// fails), and so does dropping an unclosed reader.
func TestAheadReaderStops(t *testing.T) {
	base := runtime.NumGoroutine()
	a := newAheadReader(zeros{})
	if _, err := a.Read(make([]byte, 10)); err != nil {
		t.Fatal(err)
	}
	a.Close() // returns once the goroutine has ended
	if n := runtime.NumGoroutine(); n > base {
		t.Errorf("%d goroutines after Close, want at most %d", n, base)
	}
	if _, err := a.Read(make([]byte, 10)); !errors.Is(err, os.ErrClosed) {
		t.Errorf("Read after Close: %v, want os.ErrClosed", err)
	}

	func() {
		b := newAheadReader(zeros{})
		_, _ = b.Read(make([]byte, 10))
	}()
	// Cleanups run on their own goroutine after a collection: give it
	// a bounded number of collections and yields.
	for i := 0; i < 10000 && runtime.NumGoroutine() > base; i++ {
		runtime.GC()
		runtime.Gosched()
	}
	if n := runtime.NumGoroutine(); n > base {
		t.Errorf("%d goroutines once an unclosed reader was dropped, want at most %d", n, base)
	}
}
