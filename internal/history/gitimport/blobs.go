package gitimport

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
)

// Blobs reads file contents from the repository through one
// long-running `git cat-file --batch`, so a commit's before and after
// images cost a round trip each, not a process (bench/history reads its
// truth's file versions with it too).
type Blobs struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

// OpenBlobs starts the reader on the repository of dir; Close ends it.
func OpenBlobs(ctx context.Context, dir string) (*Blobs, error) {
	cmd := exec.CommandContext(ctx, "git", "-C", dir, "cat-file", "--batch")
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("running git cat-file: %w", err)
	}
	return &Blobs{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<16)}, nil
}

// Read returns the content of the object named name (an object id or
// REV:PATH); ok is false when the repository has no such object.
func (b *Blobs) Read(name string) (data []byte, ok bool, err error) {
	if strings.ContainsAny(name, "\n") {
		return nil, false, nil
	}
	if _, err := io.WriteString(b.in, name+"\n"); err != nil {
		return nil, false, fmt.Errorf("git cat-file: %w", err)
	}
	header, err := b.out.ReadString('\n')
	if err != nil {
		return nil, false, fmt.Errorf("git cat-file: %w", err)
	}
	// "NAME missing", where NAME (a REV:PATH) may hold spaces.
	if strings.HasSuffix(strings.TrimRight(header, "\n"), " missing") {
		return nil, false, nil
	}
	fields := strings.Fields(header)
	if len(fields) != 3 {
		return nil, false, fmt.Errorf("git cat-file: unexpected header %q", header)
	}
	size, err := strconv.Atoi(fields[2])
	if err != nil {
		return nil, false, fmt.Errorf("git cat-file: header %q: %w", header, err)
	}
	data = make([]byte, size+1) // the content and its closing newline
	if _, err := io.ReadFull(b.out, data); err != nil {
		return nil, false, fmt.Errorf("git cat-file: %w", err)
	}
	return data[:size], fields[1] == "blob", nil
}

// Close ends the git process.
func (b *Blobs) Close() {
	_ = b.in.Close()
	_ = b.cmd.Wait()
}
