//go:build linux || windows

package gpu

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
)

// platform is the window-system side of a context: EGL or WGL. Its
// methods run on the device's thread.
type platform interface {
	// proc returns the address of a GL function, 0 if there is none.
	proc(name string) uintptr
	// name says how the context was made ("EGL device", ...).
	name() string
	destroy()
}

// device is a Device on OpenGL: a goroutine locked to its OS thread owns
// the context, and Do sends it closures.
type device struct {
	info Info
	work chan func()
	gone chan struct{} // closed when the thread has released the context
	mu   sync.Mutex    // guards closed
	done bool
	ctx  *glContext
	plat platform
}

// errClosed is Do's error after Close.
var errClosed = errors.New("gpu: device closed")

// open starts the thread, makes the context on it and loads OpenGL.
func open() (Device, error) {
	d := &device{work: make(chan func()), gone: make(chan struct{})}
	ready := make(chan error)
	go d.loop(ready)
	if err := <-ready; err != nil {
		return nil, err
	}
	return d, nil
}

func (d *device) loop(ready chan<- error) {
	// The context is current on this thread only. The thread is given
	// back once no context is current on it: letting it exit runs the
	// GL libraries' thread destructors, which crashed Mesa here.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	err := func() (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("opening the context: %v", r)
			}
		}()
		p, err := newPlatform()
		if err != nil {
			return err
		}
		c, err := newGLContext(p.proc)
		if err != nil {
			p.destroy()
			return err
		}
		d.plat, d.ctx = p, c
		d.info = c.info(p.name())
		return nil
	}()
	ready <- err
	if err != nil {
		return
	}
	for fn := range d.work {
		fn()
	}
	d.ctx.release()
	d.plat.destroy()
	close(d.gone)
}

func (d *device) Info() Info { return d.info }

func (d *device) Do(fn func(c Context) error) error {
	d.mu.Lock()
	if d.done {
		d.mu.Unlock()
		return errClosed
	}
	res := make(chan error, 1)
	d.work <- func() {
		defer func() {
			if r := recover(); r != nil {
				res <- fmt.Errorf("gpu: %v", r)
			}
		}()
		if d.ctx.lost != nil {
			res <- d.ctx.lost
			return
		}
		res <- fn(d.ctx)
	}
	d.mu.Unlock()
	return <-res
}

func (d *device) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.done {
		d.done = true
		close(d.work)
		<-d.gone
	}
	return nil
}
