//go:build !unix

package outfile

import "testing"

func mkfifo(t *testing.T, dir string) (string, bool) { return "", false }
func mknull(t *testing.T, dir string) (string, bool) { return "", false }
