//go:build long

package cache_test

import "testing"

// TestPropertyLong is TestProperty on seeds 1 to 200.
func TestPropertyLong(t *testing.T) { checkProperty(t, 200) }

// TestPickShortcutsChangeNothingLong is TestPickShortcutsChangeNothing
// on seeds 1 to 100.
func TestPickShortcutsChangeNothingLong(t *testing.T) { checkPickShortcuts(t, 100) }
