"""Unit tests under Pulumi's mocks: no engine, no plugin, no network. Every resource registration
goes to `new_resource` and every lookup (a function of the plugin's schema) to `call`; the tests
check what the program asks for and what it declares.

No provider runs under mocks, so the provider's own input checks (a limit of the wrong kind, a
malformed version) are not here: test_integration.py previews a bad input against the simulator.
"""
import pulumi
import pytest

resources = []
calls = []

# What the mocked lookups answer, by function token.
ANSWERS = {
    "cloudplatform:index:getProject": {"id": 1, "name": "default", "isDefault": True},
    "cloudplatform:index:getRegion": {"id": 76, "displayName": "Luxembourg-2", "state": "ACTIVE"},
}


class Mocks(pulumi.runtime.Mocks):
    def new_resource(self, args: pulumi.runtime.MockResourceArgs):
        resources.append(args)
        state = dict(args.inputs)
        if args.typ == "cloudplatform:index:StorageEvent":
            state["uuid"] = f"{args.name}-uuid"  # the provider would compute it
        return [f"{args.name}-id", state]

    def call(self, args: pulumi.runtime.MockCallArgs):
        calls.append(args)
        return ANSWERS.get(args.token, {})


pulumi.runtime.set_mocks(Mocks(), project="testing-python", stack="unit", preview=False)

from program import declare_stack  # noqa: E402  (after the mocks, as Pulumi's guide does)


@pytest.fixture(autouse=True)
def fresh():
    resources.clear()
    calls.clear()


def inputs_of(type_token):
    found = [r for r in resources if r.typ == type_token]
    assert len(found) == 1, [r.typ for r in resources]
    return found[0].inputs


@pulumi.runtime.test
def test_lookups_ask_for_the_default_project_and_a_kubernetes_region():
    outputs = declare_stack()

    def check(_):
        # Lookups run concurrently: compare them in token order.
        assert sorted(((c.token, c.args) for c in calls), key=lambda c: c[0]) == [
            ("cloudplatform:index:getProject", {}),
            ("cloudplatform:index:getRegion", {"name": "Luxembourg-2", "hasK8s": True}),
        ]

    return pulumi.Output.all(*outputs.values()).apply(check)


@pulumi.runtime.test
def test_resources_get_what_the_lookups_and_the_config_say():
    outputs = declare_stack()

    def check(values):
        assert inputs_of("cloudplatform:index:K8sClusterUpgrade") == {
            "projectId": 1,
            "regionId": 76,
            "clusterName": "demo-cluster",
            "version": "v1.31.2",
        }
        assert inputs_of("cloudplatform:index:StorageEvent") == {
            "name": "reaching_used_space",
            "storageName": "media",
            "bytes": 500 * 1024**3,
        }
        assert values == [1, 76, "v1.31.2", "space-threshold-uuid"]

    return pulumi.Output.all(*outputs.values()).apply(check)
