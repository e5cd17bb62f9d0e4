//go:build !unix

package main

import "testing"

func specialFiles(t *testing.T, dir string) map[string]string { return nil }
