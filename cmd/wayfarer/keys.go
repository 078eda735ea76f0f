package main

import (
	"os"

	"github.com/wayfarerhq/wayfarer/internal/vault"
)

// cardKeysFromEnv is the card vault key text from the environment, the one
// place besides a key file that keys may come from (never the database).
func cardKeysFromEnv() string { return os.Getenv(vault.EnvVar) }

func ensureCardKeyFile(path string) (bool, error) { return vault.EnsureKeyFile(path) }
