//go:build tools

// Package tools pins the Java language host (pulumi-java v1.13.0) for tools/pulumi-cli.sh.
package tools

import _ "github.com/pulumi/pulumi-java/pkg/cmd/pulumi-language-java"
