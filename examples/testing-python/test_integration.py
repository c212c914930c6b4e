"""Integration tests: the real `pulumi` CLI runs the program as an Automation API inline program,
with the cloudplatform plugin, against the package's simulator (conftest.py). Needs the Pulumi
CLI and the plugin on PATH; a temporary file backend keeps it off your real stacks."""
import pytest
import pulumi.automation as auto

from program import main

EVENT_PATH = "/storage/notifications/v1/event"
pytestmark = pytest.mark.integration


@pytest.fixture
def stack(simulator, tmp_path):
    settings = auto.ProjectSettings(name="testing-python", runtime="python", backend=auto.ProjectBackend(url=f"file://{tmp_path}"))
    opts = auto.LocalWorkspaceOptions(
        work_dir=str(tmp_path),
        project_settings=settings,
        env_vars={"PULUMI_CONFIG_PASSPHRASE": "integration-test", "PULUMI_SKIP_UPDATE_CHECK": "true"},
    )
    stack = auto.create_stack(stack_name="integration", project_name="testing-python", program=main, opts=opts)
    stack.set_config("cloudplatform:baseUrl", auto.ConfigValue(value=simulator.url))
    stack.set_config("cloudplatform:apiKey", auto.ConfigValue(value=simulator.api_key, secret=True))
    yield stack
    stack.workspace.remove_stack("integration", force=True)


def test_a_bad_input_fails_at_preview_before_any_write(stack, simulator):
    stack.set_config("spaceEvent", auto.ConfigValue(value="reaching_used_requests"))
    with pytest.raises(auto.CommandError) as failure:
        stack.preview()
    assert "reaching_used_requests takes its limit in count" in str(failure.value)
    assert simulator.requests(method="POST") == []


def test_up_refresh_destroy_through_a_503_on_the_thresholds_first_create(stack, simulator):
    simulator.admin("POST", "/__admin/faults", {"errorRate": 1, "path": EVENT_PATH, "method": "POST", "times": 1})

    up = stack.up()
    assert up.summary.result == "succeeded"
    assert up.outputs["clusterVersion"].value == "v1.31.2"
    state = simulator.state()
    assert [c["version"] for c in state["clusters"] if c["name"] == "demo-cluster"] == ["v1.31.2"]
    assert [(e["uuid"], e["name"], e["bytes"]) for e in state["storageEvents"]] == [(up.outputs["spaceEventUuid"].value, "reaching_used_space", 500 * 1024**3)]
    # The 503 came before the simulator acted; the provider checked, then created it once.
    assert [r["status"] for r in simulator.requests(method="POST", path=EVENT_PATH)] == [503, 200]

    assert stack.refresh().summary.result == "succeeded"
    assert set(stack.preview().change_summary) == {"same"}  # nothing to change after the refresh

    assert stack.destroy().summary.result == "succeeded"
    assert simulator.state()["storageEvents"] == []
