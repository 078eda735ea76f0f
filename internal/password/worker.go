package password

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/crypto/argon2"
)

// A Worker derives argon2id keys in a child process running at a low CPU
// priority (nice). A check keeps two cores busy for a tenth of a second;
// in the server's own process, a burst of logins delays every other
// request while it runs, because the Go scheduler has no priorities. The
// operating system's has: other requests run first, and the 64 MiB each
// check allocates stay out of the server's heap.
//
// The child is the server's own executable, started with workerEnv set;
// its main must call ServeWorkerIfChild first. Passwords travel over the
// child's stdin, keys come back over its stdout; the child never logs.
type Worker struct {
	exe  string
	nice int

	mu   sync.Mutex
	proc *workerProc
	next atomic.Uint64
}

const (
	workerEnv     = "WAYFARER_PASSWORD_WORKER" // "child" in the worker's environment
	workerNiceEnv = "WAYFARER_PASSWORD_WORKER_NICE"
	maxFrame      = 1 << 24 // no password, salt or key is longer
)

// StartWorker starts a worker running exe (the server's executable) at the
// nice level given (0 to 19: higher is lower priority).
func StartWorker(exe string, nice int) (*Worker, error) {
	w := &Worker{exe: exe, nice: nice}
	if _, err := w.process(); err != nil {
		return nil, err
	}
	return w, nil
}

// Derive computes argon2id's key in the child, starting a new child when
// the last one died.
func (w *Worker) Derive(password, salt []byte, p Params) ([]byte, error) {
	proc, err := w.process()
	if err != nil {
		return nil, err
	}
	return proc.call(w.next.Add(1), password, salt, p)
}

// Close ends the child: it exits when its stdin closes.
func (w *Worker) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.proc == nil {
		return nil
	}
	err := w.proc.stop()
	w.proc = nil
	return err
}

func (w *Worker) process() (*workerProc, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.proc != nil {
		select {
		case <-w.proc.dead:
			_ = w.proc.stop()
			w.proc = nil
		default:
			return w.proc, nil
		}
	}
	p, err := startProc(w.exe, w.nice)
	if err != nil {
		return nil, err
	}
	w.proc = p
	return p, nil
}

// workerProc is one running child.
type workerProc struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	wmu   sync.Mutex // one request written at a time
	out   *bufio.Writer

	pmu     sync.Mutex
	pending map[uint64]chan []byte
	dead    chan struct{} // closed when the child's stdout ends
	done    chan struct{} // closed when the child has been waited for
}

func startProc(exe string, nice int) (*workerProc, error) {
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), workerEnv+"=child", workerNiceEnv+"="+strconv.Itoa(nice))
	cmd.Stderr = os.Stderr
	setParentDeath(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("password worker: %w", err)
	}
	p := &workerProc{cmd: cmd, stdin: stdin, out: bufio.NewWriter(stdin), pending: map[uint64]chan []byte{},
		dead: make(chan struct{}), done: make(chan struct{})}
	go p.readAnswers(bufio.NewReader(stdout))
	return p, nil
}

func (p *workerProc) readAnswers(r *bufio.Reader) {
	defer func() {
		p.pmu.Lock()
		close(p.dead)
		for id, ch := range p.pending {
			close(ch)
			delete(p.pending, id)
		}
		p.pmu.Unlock()
		_ = p.cmd.Wait()
		close(p.done)
	}()
	for {
		id, err := readUint64(r)
		if err != nil {
			return
		}
		key, err := readFrame(r)
		if err != nil {
			return
		}
		p.pmu.Lock()
		ch := p.pending[id]
		delete(p.pending, id)
		p.pmu.Unlock()
		if ch != nil {
			ch <- key
		}
	}
}

func (p *workerProc) call(id uint64, password, salt []byte, prm Params) ([]byte, error) {
	ch := make(chan []byte, 1)
	p.pmu.Lock()
	select {
	case <-p.dead:
		p.pmu.Unlock()
		return nil, errors.New("password worker: exited")
	default:
	}
	p.pending[id] = ch
	p.pmu.Unlock()
	p.wmu.Lock()
	err := writeRequest(p.out, id, password, salt, prm)
	if err == nil {
		err = p.out.Flush()
	}
	p.wmu.Unlock()
	if err != nil {
		p.pmu.Lock()
		delete(p.pending, id)
		p.pmu.Unlock()
		return nil, fmt.Errorf("password worker: %w", err)
	}
	key, ok := <-ch
	if !ok || len(key) == 0 {
		return nil, errors.New("password worker: no answer")
	}
	return key, nil
}

func (p *workerProc) stop() error {
	_ = p.stdin.Close()
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.done
	}
	return nil
}

// ServeWorkerIfChild makes this process a password worker, and exits when
// its parent is gone, if it was started as one; otherwise it returns at
// once. Call it first thing in main (and in TestMain of tests that start
// workers from their test binary).
func ServeWorkerIfChild() {
	if os.Getenv(workerEnv) != "child" {
		return
	}
	nice, _ := strconv.Atoi(os.Getenv(workerNiceEnv))
	lowerPriority(nice)
	if err := serveWorker(os.Stdin, os.Stdout); err != nil && !errors.Is(err, io.EOF) {
		fmt.Fprintln(os.Stderr, "password worker:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// serveWorker answers requests until in ends, each as soon as its key is
// derived; the parent bounds how many it sends at once.
func serveWorker(in io.Reader, out io.Writer) error {
	r := bufio.NewReader(in)
	w := bufio.NewWriter(out)
	var mu sync.Mutex
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		id, password, salt, p, err := readRequest(r)
		if err != nil {
			return err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			key := argon2.IDKey(password, salt, p.Iterations, p.MemoryKiB, p.Parallelism, p.KeyLen)
			mu.Lock()
			defer mu.Unlock()
			if writeUint64(w, id) == nil && writeFrame(w, key) == nil {
				_ = w.Flush()
			}
		}()
	}
}

func writeRequest(w io.Writer, id uint64, password, salt []byte, p Params) error {
	var head [8 + 4 + 4 + 1 + 4]byte
	binary.BigEndian.PutUint64(head[0:], id)
	binary.BigEndian.PutUint32(head[8:], p.MemoryKiB)
	binary.BigEndian.PutUint32(head[12:], p.Iterations)
	head[16] = p.Parallelism
	binary.BigEndian.PutUint32(head[17:], p.KeyLen)
	if _, err := w.Write(head[:]); err != nil {
		return err
	}
	if err := writeFrame(w, salt); err != nil {
		return err
	}
	return writeFrame(w, password)
}

func readRequest(r io.Reader) (id uint64, password, salt []byte, p Params, err error) {
	var head [8 + 4 + 4 + 1 + 4]byte
	if _, err = io.ReadFull(r, head[:]); err != nil {
		return
	}
	id = binary.BigEndian.Uint64(head[0:])
	p = Params{MemoryKiB: binary.BigEndian.Uint32(head[8:]), Iterations: binary.BigEndian.Uint32(head[12:]),
		Parallelism: head[16], KeyLen: binary.BigEndian.Uint32(head[17:])}
	if p.Iterations == 0 || p.Parallelism == 0 || p.KeyLen == 0 || p.KeyLen > maxFrame {
		return id, nil, nil, p, errors.New("malformed request")
	}
	if salt, err = readFrame(r); err != nil {
		return
	}
	password, err = readFrame(r)
	return
}

func writeUint64(w io.Writer, v uint64) error {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], v)
	_, err := w.Write(b[:])
	return err
}

func readUint64(r io.Reader) (uint64, error) {
	var b [8]byte
	if _, err := io.ReadFull(r, b[:]); err != nil {
		return 0, err
	}
	return binary.BigEndian.Uint64(b[:]), nil
}

func writeFrame(w io.Writer, b []byte) error {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(b)))
	if _, err := w.Write(n[:]); err != nil {
		return err
	}
	_, err := w.Write(b)
	return err
}

func readFrame(r io.Reader) ([]byte, error) {
	var n [4]byte
	if _, err := io.ReadFull(r, n[:]); err != nil {
		return nil, err
	}
	size := binary.BigEndian.Uint32(n[:])
	if size > maxFrame {
		return nil, errors.New("frame too large")
	}
	b := make([]byte, size)
	_, err := io.ReadFull(r, b)
	return b, err
}
