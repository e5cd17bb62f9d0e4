package ssd

// StoredAt copies into p the bytes that writes carrying Request.Data
// have left at byte offset off of the drive (zeros where none did), for
// checking an array's contents after a power loss. With a volatile
// write buffer they include writes not yet on flash: see WritesThrough.
func (d *Drive) StoredAt(p []byte, off int64) { d.data.read(p, off) }

// WritesThrough reports whether every write the drive acknowledges
// survives a power loss (no write buffer, or power-loss protection), so
// StoredAt is what a power loss leaves.
func (d *Drive) WritesThrough() bool { return !d.volatileBuf }
