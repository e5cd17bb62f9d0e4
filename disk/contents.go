package disk

// StoredAt copies into p the bytes that writes carrying Request.Data
// have left at byte offset off of the drive (zeros where none did), for
// checking an array's contents after a power loss. With the write cache
// on they include writes not yet on the platters (DirtyExtents): see
// WritesThrough. off and len(p) are multiples of the sector size.
func (d *Drive) StoredAt(p []byte, off int64) {
	for i := int64(0); (i+1)*d.ss <= int64(len(p)); i++ {
		dst := p[i*d.ss : (i+1)*d.ss]
		if b := d.data.m[off/d.ss+i]; b != nil {
			copy(dst, b)
		} else {
			clear(dst)
		}
	}
}

// WritesThrough reports whether every write the drive acknowledges is on
// the platters (its write cache is off), so StoredAt is what a power
// loss leaves.
func (d *Drive) WritesThrough() bool { return !d.p.WriteCache }
