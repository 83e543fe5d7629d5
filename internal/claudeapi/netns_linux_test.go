package claudeapi

import (
	"net"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestNetnsIsolates: inside the namespace only lo exists, up; the server there is reachable and one on
// the machine's loopback is not, while a Unix socket on the file system is; a process started there
// sees the same; the test's own thread keeps the machine's network.
func TestNetnsIsolates(t *testing.T) {
	host := New(t, Steps())
	ns := Isolate(t)
	ln, err := ns.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	inside := Serve(t, ln, Steps())
	sock := filepath.Join(t.TempDir(), "daemon.sock")
	unixLn, err := net.Listen("unix", sock) // the machine's side, as the daemon's socket
	if err != nil {
		t.Fatal(err)
	}
	defer unixLn.Close()
	var ifaces []net.Interface
	var ifaceErr, insideErr, hostErr, unixErr error
	if err := ns.do(func() {
		ifaces, ifaceErr = net.Interfaces()
		insideErr = dial(inside.URL)
		hostErr = dial(host.URL)
		var conn net.Conn
		if conn, unixErr = net.Dial("unix", sock); unixErr == nil {
			conn.Close()
		}
	}); err != nil {
		t.Fatal(err)
	}
	if ifaceErr != nil || len(ifaces) != 1 || ifaces[0].Name != "lo" || ifaces[0].Flags&net.FlagUp == 0 {
		t.Errorf("interfaces in the namespace: %+v %v, want lo alone, up", ifaces, ifaceErr)
	}
	if insideErr != nil {
		t.Errorf("the server inside is unreachable from inside: %v", insideErr)
	}
	if hostErr == nil && inside.URL != host.URL { // the same port number on both sides would answer
		t.Error("the machine's loopback server is reachable from inside the namespace")
	}
	if unixErr != nil {
		t.Errorf("a Unix socket on the file system is unreachable from inside: %v", unixErr)
	}
	if err := dial(host.URL); err != nil {
		t.Errorf("the test's own thread lost the machine's network: %v", err)
	}
	out, err := startOutput(ns, exec.Command("sh", "-c", "tail -n +3 /proc/net/dev"))
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Fields(out); len(lines) == 0 || lines[0] != "lo:" || strings.Count(out, ":") != 1 {
		t.Errorf("a process started in the namespace sees these interfaces:\n%s\nwant lo alone", out)
	}
}

func TestNetnsClosed(t *testing.T) {
	ns := Isolate(t)
	ns.Close()
	ns.Close()
	if _, err := ns.Listen("tcp", "127.0.0.1:0"); err == nil {
		t.Error("Listen after Close succeeded")
	}
	if err := ns.Start(exec.Command("true")); err == nil {
		t.Error("Start after Close succeeded")
	}
}

// TestRunHeldOutput: a process the client leaves behind holding its stdout does not hang Run, and the
// error says what happened.
func TestRunHeldOutput(t *testing.T) {
	defer func(d time.Duration) { waitDelay = d }(waitDelay)
	waitDelay = 100 * time.Millisecond
	c := &Claude{Path: "/bin/sh", Dir: t.TempDir(), Netns: Isolate(t)}
	start := time.Now()
	_, _, err := c.Run("", "-c", "sleep 3 & echo started")
	if err == nil || !strings.Contains(err.Error(), "still holds its stdout") {
		t.Errorf("Run = %v, want the held-output error", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Run waited %s for the process left behind", d)
	}
}

func dial(url string) error {
	conn, err := net.DialTimeout("tcp", strings.TrimPrefix(url, "http://"), 2*time.Second)
	if err == nil {
		conn.Close()
	}
	return err
}

func startOutput(ns *Netns, cmd *exec.Cmd) (string, error) {
	var b strings.Builder
	cmd.Stdout = &b
	err := ns.Run(cmd)
	return b.String(), err
}
