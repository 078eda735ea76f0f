package password

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

func TestMain(m *testing.M) {
	ServeWorkerIfChild() // the test binary is also the worker's executable
	os.Exit(m.Run())
}

func testWorker(t *testing.T, nice int) *Worker {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	w, err := StartWorker(exe, nice)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w
}

func TestWorkerDerivesWhatTheProcessDoes(t *testing.T) {
	w := testWorker(t, 10)
	h := New(cheap, 4)
	h.UseWorker(w)
	local := New(cheap, 1)
	enc, err := h.Hash("s3cret")
	if err != nil {
		t.Fatal(err)
	}
	if !local.Verify("s3cret", enc) || !h.Verify("s3cret", enc) || h.Verify("s3cret ", enc) {
		t.Fatal("the worker's keys differ from this process's")
	}
	enc, _ = local.Hash("other")
	if !h.Verify("other", enc) {
		t.Fatal("a key derived here does not verify in the worker")
	}
	// Concurrent checks are all answered, each with its own key.
	done := make(chan bool)
	for i := range 8 {
		go func() {
			pw := strconv.Itoa(i)
			e, _ := local.Hash(pw)
			done <- h.Verify(pw, e) && !h.Verify(pw+"x", e)
		}()
	}
	for range 8 {
		if !<-done {
			t.Fatal("a concurrent check got another's answer")
		}
	}
}

func TestWorkerRunsAtLowPriority(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	w := testWorker(t, 15)
	pid := w.proc.cmd.Process.Pid
	if _, err := w.Derive([]byte("pw"), make([]byte, 16), cheap); err != nil {
		t.Fatal(err)
	}
	tasks, err := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/task")
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range tasks {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/task/" + task.Name() + "/stat")
		if err != nil {
			continue // the thread ended
		}
		// Field 19 is the nice value; fields after the command's ")".
		fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+2:]))
		if fields[16] != "15" {
			t.Errorf("worker thread %s runs at nice %s, want 15", task.Name(), fields[16])
		}
	}
}

func TestWorkerThatDiesIsReplaced(t *testing.T) {
	w := testWorker(t, 10)
	h := New(cheap, 2)
	h.UseWorker(w)
	enc, _ := h.Hash("pw")
	first := w.proc.cmd.Process
	if err := first.Kill(); err != nil {
		t.Fatal(err)
	}
	<-w.proc.done
	// The check still answers (here or in a new worker), and a new worker
	// serves the next ones.
	// Two checks: the first may be answered here, the second by the new worker.
	for i := 0; i < 2; i++ {
		if !h.Verify("pw", enc) {
			t.Fatalf("check %d: the right password failed after the worker died", i+1)
		}
	}
	if w.proc == nil || w.proc.cmd.Process.Pid == first.Pid {
		t.Fatal("no new worker")
	}
}
