package raidsim

// SetHeapBytes replaces the heap measure a run's memory watch reads, and
// returns a function that restores it.
func SetHeapBytes(f func() int64) (restore func()) {
	old := heapBytes
	heapBytes = f
	return func() { heapBytes = old }
}
