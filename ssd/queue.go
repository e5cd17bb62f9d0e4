package ssd

// queue is a FIFO ring that grows by doubling and is then reused, so the
// steady state does not allocate.
type queue[T any] struct {
	buf  []T
	head int
	n    int
}

func (q *queue[T]) grow(c int) {
	nb := make([]T, max(c, 2*len(q.buf)))
	for i := range q.n {
		nb[i] = q.buf[(q.head+i)%len(q.buf)]
	}
	q.buf, q.head = nb, 0
}

func (q *queue[T]) push(v T) {
	if q.n == len(q.buf) {
		q.grow(16)
	}
	q.buf[(q.head+q.n)%len(q.buf)] = v
	q.n++
}

func (q *queue[T]) pop() T {
	var zero T
	v := q.buf[q.head]
	q.buf[q.head] = zero
	q.head = (q.head + 1) % len(q.buf)
	q.n--
	return v
}

// at returns the i-th element from the head.
func (q *queue[T]) at(i int) T { return q.buf[(q.head+i)%len(q.buf)] }
