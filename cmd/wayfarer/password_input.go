package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v3"
	"golang.org/x/term"
)

// Passwords come from the command's input, never from its arguments, where
// they would land in shell history and process listings.

// inputTerminal is the command's input when it is a terminal.
func inputTerminal(cmd *cli.Command) (*os.File, bool) {
	f, ok := cmd.Root().Reader.(*os.File)
	return f, ok && term.IsTerminal(int(f.Fd()))
}

// stdinPassword reads one line of the command's input as the password.
func stdinPassword(cmd *cli.Command) (string, error) {
	line, err := bufio.NewReader(cmd.Root().Reader).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", err
	}
	pw := strings.TrimRight(line, "\r\n")
	if pw == "" {
		return "", errors.New("no password on stdin")
	}
	return pw, nil
}

// promptPassword asks on the terminal without echo; confirm asks twice.
func promptPassword(cmd *cli.Command, f *os.File, confirm bool) (string, error) {
	ask := func(prompt string) (string, error) {
		fmt.Fprint(cmd.Root().ErrWriter, prompt)
		pw, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(cmd.Root().ErrWriter)
		return string(pw), err
	}
	pw, err := ask("Password: ")
	if err != nil || !confirm {
		return pw, err
	}
	again, err := ask("Repeat password: ")
	if err != nil {
		return "", err
	}
	if pw != again {
		return "", errors.New("the passwords differ")
	}
	return pw, nil
}

// readNewPassword is how admin commands take a password to set: a prompt
// asked twice on a terminal, one line from a pipe otherwise.
func readNewPassword(cmd *cli.Command) (string, error) {
	if f, ok := inputTerminal(cmd); ok {
		return promptPassword(cmd, f, true)
	}
	return stdinPassword(cmd)
}
