"""Runs a Python example of this repository (examples/<name>/__main__.py, its own file,
unchanged) as an Automation API inline program against the simulator: up, the simulator's
state right after it, a no-change preview, destroy. Each step prints `RESULT <json>`; the jest
test (tests/integration/languageExamples.test.ts) asserts on those and on the simulator.

Usage: run_example.py <example dir>
Environment: see inline_support.py; EXAMPLE_CONFIG (optional): a JSON object of the example's
own stack config.
"""
import json
import os
import runpy
import sys
import urllib.request

import pulumi.automation as auto
import yaml

from inline_support import STACK, emit, open_stack, up_fields


def simulator_state():
    """The simulator's whole state (`GET /__admin/state`), what the platform now holds."""
    with urllib.request.urlopen(os.environ["CLOUDPLATFORM_BASE_URL"] + "/__admin/state") as answer:
        return json.load(answer)


def main(example_dir):
    with open(os.path.join(example_dir, "Pulumi.yaml"), encoding="utf-8") as f:
        project_name = yaml.safe_load(f)["name"]
    main_file = os.path.join(example_dir, "__main__.py")

    def program():
        # What the Python language host does with a project directory: run its __main__.py.
        runpy.run_path(main_file, run_name="__main__")

    stack = open_stack(project_name, program)
    for key, value in json.loads(os.environ.get("EXAMPLE_CONFIG") or "{}").items():
        stack.set_config(key, auto.ConfigValue(value=value))

    events = []
    up = stack.up(color="never", on_event=events.append)
    emit("up", **up_fields(up, events))
    emit("simulator", state=simulator_state())
    preview = stack.preview(expect_no_changes=True, color="never")
    emit("preview", changes=preview.change_summary)
    destroy = stack.destroy(color="never")
    emit("destroy", changes=destroy.summary.resource_changes)
    stack.workspace.remove_stack(STACK)


if __name__ == "__main__":
    try:
        main(sys.argv[1])
    except Exception as err:  # the test shows this text; it must never contain the key
        print("ERROR " + str(err), file=sys.stderr, flush=True)
        sys.exit(1)
