# Every target sets itself up: a fresh clone needs only `make demo` or `make test`.
SHELL := /bin/bash
.DEFAULT_GOAL := help

CLI_ROOT := $(shell bash tools/pulumi-cli.sh --print-root)
export CLOUDPLATFORM_PULUMI_ROOT := $(CLI_ROOT)
STAMP_NPM := node_modules/.npm-ci.stamp
STAMP_BUILD := dist/.build.stamp
SOURCES := $(shell find provider sdk/nodejs simulator -name '*.ts' -o -name '*.json' 2>/dev/null)

.PHONY: help setup build pulumi-cli pulumi-cli-go java-sdk test test-assets test-integration-main test-integration-timed test-new-machine go-programs sdkgen python-venv node-24 test-unit test-integration test-reliability test-compat demo bench typecheck docs python-sdk schema sdks version plugin-archive dist clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-18s %s\n", $$1, $$2}'

$(STAMP_NPM): package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

# dist/ is emptied first: the output of a source file that was deleted or moved must not ship.
$(STAMP_BUILD): $(STAMP_NPM) $(SOURCES) tsconfig.json
	rm -rf dist
	npx tsc -p tsconfig.json
	@chmod +x dist/simulator/cli.js dist/provider/drift/cli.js 2>/dev/null || true
	@touch $@

setup: $(STAMP_NPM) pulumi-cli python-sdk ## install npm dependencies, the Pulumi CLI and the official Python SDK (for one test)

build: $(STAMP_BUILD) ## compile TypeScript to dist/

pulumi-cli: $(STAMP_NPM) pulumi-cli-go ## provide pulumi v3.248.0 (+ Node.js and YAML language hosts) in the cache outside the repo
	@bash tools/pulumi-cli.sh

# The Go part of pulumi-cli (minutes on a fresh machine), which needs no node_modules: under
# `make -j` it starts at once, beside `npm ci`; pulumi-cli then only links the launcher.
pulumi-cli-go:
	@bash tools/pulumi-cli.sh --no-launcher

python-sdk: ## provide PyPI gcore 0.59.0 in a venv in the cache outside the repo (the simulator's SDK-compatibility test)
	@bash scripts/gcore-python-sdk.sh

schema: $(STAMP_NPM) ## regenerate provider/plugin/schema.json from the TypeScript SDK (a unit test checks it is current)
	node tools/schema/generate.js

# PLUGIN_DOWNLOAD_URL=<url> (a make or environment variable) also writes the plugin download URL
# into the schema and both SDKs (PLUGIN_DOWNLOAD_URL= removes it); unset, the schema's is kept.
version: ## write package.json's version (and PLUGIN_DOWNLOAD_URL=<url>, if given) into every copy (plugin constant, schema, Python and Go SDKs)
	node tools/release/version.js

plugin-archive: build ## this machine's plugin archive for `pulumi plugin install resource cloudplatform <version> --file` (dist-plugin/)
	bash tools/plugin-archive.sh

# PLUGIN_DOWNLOAD_URL=<url>: the artifacts name it (tools/release/dist.sh; RELEASING.md).
dist: build ## everything a release publishes (PLUGIN_DOWNLOAD_URL=<url> to name the plugin's download URL), into dist-release/: npm tarball, plugin archives (linux/darwin/windows, amd64/arm64), Python sdist and wheel, the Java SDK jar and pom, SHA256SUMS; prints the Go SDK's tag
	bash tools/release/dist.sh

sdks: schema pulumi-cli ## regenerate the Python, Go and Java SDKs (sdk/python, sdk/go, sdk/java) from the plugin schema
	bash tools/gen-sdks.sh

typecheck: $(STAMP_BUILD) ## type-check sources and tests
	npx tsc -p tsconfig.test.json

# Three phases. First the set-up, all cores to it: `npm ci`, the build, and what the suites use
# from outside npm (test-assets; on a new machine minutes of Go compilation, the CLI's Go build
# started beside `npm ci`; on a warm machine seconds). Then the unit tests and the type check
# beside the integration suites: the unit suites mostly wait on their simulators' timers and the
# integration suites keep both cores busy, so each fills the other's idle time; the integration
# suites run at nice 5, so a unit test that asks for CPU gets it first. Last, the suites whose
# assertions depend on timing, alone.
# Why this order, measured on 2 cores on 2026-11-27 (`make test-new-machine`; CONTRIBUTING, "How
# long make test takes"): on an empty machine the unit tests beside the set-up at nice 10 ended
# that phase after 580 s, and after it (set-up 501 s, then 73 s of unit tests) after 574 s:
# neither order won, as the unit phase is mostly waiting. Beside the integration suites it costs
# nothing measurable (those took 560 to 606 s with it or without), so the set-up ends after 450
# to 500 s and the whole run after 18 to 19 min instead of 20 min 51 s; on a warm machine the
# run takes 11 min 35 s instead of 13 min 3 s (CI, the previous order).
test: ## unit + integration tests (the CI command)
	$(MAKE) -j4 build python-sdk test-assets
	@status=0; \
	$(MAKE) -k -j3 test-unit typecheck test-integration-main || status=1; \
	$(MAKE) test-integration-timed || status=1; \
	exit $$status

test-new-machine: ## `make test` as a new machine runs it: a clean clone of HEAD, every cache empty (about 20 min on 2 cores; not part of CI)
	bash scripts/new-machine.sh test

# What integration suites would otherwise build on first use, one suite waiting while it does.
# All are cached outside the repository; on a machine that has them this takes seconds.
test-assets: pulumi-cli go-programs sdkgen python-venv node-24 java-sdk ## the CLI plus what the integration suites need from outside npm (venv, Go programs, the SDK generator, Node 24, the Java SDK in the Maven cache)

# The Go test programs, after the CLI: its build fills Go's cache, so these take seconds.
go-programs: pulumi-cli
	@bash scripts/go-program.sh >/dev/null
	@bash scripts/go-program.sh --test examples/go-quickstart >/dev/null
	@bash scripts/go-program.sh --test examples/testing-go >/dev/null

# The SDK generator of generatedSdks.test.ts, after the CLI for the same reason.
sdkgen: pulumi-cli
	@bash tools/gen-sdks.sh --build-only

# The second venv adds the pytest examples/testing-python pins (tests/integration/testingExamples.test.ts).
python-venv:
	@bash scripts/python-env.sh >/dev/null
	@bash scripts/python-env.sh $$(grep '^pytest==' examples/testing-python/requirements.txt) >/dev/null

node-24:
	@bash tools/node-runtime.sh 24 >/dev/null

# sdk/java built and installed into the Maven cache outside the repo, and the Java examples built
# and unit-tested once, so Maven's first downloads (com.pulumi:pulumi, the Maven plugins, JUnit)
# happen here: about 1.5 minutes on an empty cache, at nice 10 beside the Go builds.
java-sdk:
	@nice -n 10 bash scripts/java-sdk.sh --warm-examples >/dev/null

# python-sdk first: the unit tests allow 30 s per test and hook, and the official SDK's first
# install (a download) must not happen inside officialSdk.test.ts's hook. Six workers on 2
# cores: the unit suites spend most of their time waiting on their simulators' timers (the whole
# run uses about 0.7 of the two cores at two workers), so more suites at once fill that time
# (measured: 104 s at two workers, 65 s at five, 54 s at seven). ts-jest only transpiles; `make
# test` runs `typecheck` beside them.
test-unit: build python-sdk ## unit tests (client, waiter, handlers, simulator)
	npx jest --selectProjects unit --maxWorkers=6

# Suites whose assertions depend on timing (a process killed or interrupted within seconds) run
# after the others, two at a time, never beside the main phase's load. (largeStack.test.ts runs
# in the main phase: it asserts the batching rule against its own measured duration.) The rest run five at a time on 2 cores: a Pulumi run waits on its simulator
# and on process start-ups often enough that more suites than cores fill the idle core time
# (measured with warm caches: 488 s three at a time, 440 s four at a time; a suite's CPU time
# was about three quarters of its share of two cores at four). Each suite has
# its own simulator, backend, PULUMI_HOME and temporary directories; the shared caches outside the
# repository are built under a lock. tests/sequencer.js starts the longest suites first.
TIMED_SUITES := tests/reliability/killedRuns.test.ts tests/reliability/interruptions.test.ts tests/reliability/ctrlC.test.ts
space := $(empty) $(empty)
TIMED_PATTERN := $(subst $(space),|,$(strip $(TIMED_SUITES)))

test-integration: ## real pulumi up/preview/refresh/destroy through the Automation API
	@status=0; \
	$(MAKE) test-integration-main || status=1; \
	$(MAKE) test-integration-timed || status=1; \
	exit $$status

test-integration-main: build test-assets
	nice -n 5 npx jest --selectProjects integration --maxWorkers=5 --testPathIgnorePatterns='/node_modules/|$(TIMED_PATTERN)'

test-integration-timed: build test-assets
	npx jest $(TIMED_SUITES) --selectProjects integration --maxWorkers=2

test-reliability: build pulumi-cli ## only the reliability suite (faults, malformed answers, kill points, bad input, secrets, auth)
	npx jest --selectProjects integration --runInBand --testPathPattern tests/reliability

test-compat: build pulumi-cli ## only the compatibility tests (packed package on Node 24 + newest @pulumi/pulumi, Node 20 + peer floor; its declarations and the examples under TypeScript 5, 6 and 7)
	npx jest --selectProjects integration --runInBand tests/integration/compat.test.ts tests/integration/typescriptVersions.test.ts

demo: build pulumi-cli ## the quickstart against the built-in simulator
	bash scripts/demo.sh

bench: build pulumi-cli ## benchmarks; prints a report, writes bench/report.md and the latest figures into bench/README.md
	npx tsc -p bench/tsconfig.json
	node dist-bench/bench/run.js

docs: $(STAMP_NPM) ## regenerate docs/api.md (the lookup reference) from the TypeScript declarations, docs/api-python.md and docs/api-go.md from the schema
	npx tsc -p scripts/tsconfig.json
	node dist-scripts/scripts/apiReference.js
	node dist-scripts/scripts/languageReference.js

clean: ## remove build output (the cached Pulumi CLI stays)
	rm -rf dist dist-bench dist-scripts dist-plugin dist-release
