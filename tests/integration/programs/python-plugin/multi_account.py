"""Two accounts in one Python program on the plugin path: two explicit `cloudplatform.Provider`
resources, each with its own API key and base URL, and a StorageEvent under each (the same
event identity, which only two separate accounts can both hold). Phases: create, update (each
limit changed in place), a no-change preview, the state, destroy. Each step prints one `RESULT <json>`;
tests/integration/multiAccount.test.ts checks that each resource called its own account only.

Environment: see inline_support.py, plus ACCOUNT_A_BASE_URL / ACCOUNT_A_API_KEY and
ACCOUNT_B_BASE_URL / ACCOUNT_B_API_KEY.
"""
import os
import sys

import pulumi
import pulumi_cloudplatform as cp

from inline_support import STACK, emit, open_stack, up_fields

PHASE = {"name": "create"}
LIMITS = {"create": (1000, 2000), "update": (3000, 4000)}


def program():
    bytes_a, bytes_b = LIMITS[PHASE["name"]]
    account_a = cp.Provider("account-a", base_url=os.environ["ACCOUNT_A_BASE_URL"], api_key=pulumi.Output.secret(os.environ["ACCOUNT_A_API_KEY"]))
    account_b = cp.Provider("account-b", base_url=os.environ["ACCOUNT_B_BASE_URL"], api_key=pulumi.Output.secret(os.environ["ACCOUNT_B_API_KEY"]))
    a = cp.StorageEvent("space-a", name="reaching_used_space", storage_name="media", bytes=bytes_a, opts=pulumi.ResourceOptions(provider=account_a))
    b = cp.StorageEvent("space-b", name="reaching_used_space", storage_name="media", bytes=bytes_b, opts=pulumi.ResourceOptions(provider=account_b))
    region_a = cp.get_region_output(id=76, opts=pulumi.InvokeOutputOptions(provider=account_a))
    pulumi.export("uuids", {"a": a.uuid, "b": b.uuid})
    pulumi.export("regionSeenByA", region_a.id)


def main():
    stack = open_stack("python-multi-account", program)
    for phase in ("create", "update"):
        PHASE["name"] = phase
        events = []
        up = stack.up(color="never", on_event=events.append)
        emit(phase, **up_fields(up, events))
    preview = stack.preview(expect_no_changes=True, color="never")
    emit("preview", changes=preview.change_summary)
    emit("state", deployment=stack.export_stack().deployment)
    destroy = stack.destroy(color="never")
    emit("destroy", changes=destroy.summary.resource_changes)
    stack.workspace.remove_stack(STACK)


if __name__ == "__main__":
    try:
        main()
    except Exception as err:  # the test shows this text; it must never contain a key
        print("ERROR " + str(err), file=sys.stderr, flush=True)
        sys.exit(1)
