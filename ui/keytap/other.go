//go:build !linux && !windows

package keytap

import "errors"

func open() (Tap, error) { return nil, errors.New("no key tap on this platform") }
