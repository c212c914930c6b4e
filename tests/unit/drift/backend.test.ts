import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { backendUrlOf, redactBackendUrl } from "../../../provider/drift/backend";

test.each([
  ["postgres://drift:s3cret@db.internal:5432/state?sslmode=disable", "postgres://drift:***@db.internal:5432/state?sslmode=disable"],
  ["postgres://drift:p%40ss:w@127.0.0.1/state", "postgres://drift:***@127.0.0.1/state"],
  ["postgres://drift@127.0.0.1:5432/state?sslmode=disable&password=s3cret", "postgres://drift@127.0.0.1:5432/state?sslmode=disable&password=***"],
  ["azblob://state?storage_account=acct&sig=abc%2Bdef&se=2030", "azblob://state?storage_account=acct&sig=***&se=2030"],
  ["s3://bucket/prefix?region=eu-west-1", "s3://bucket/prefix?region=eu-west-1"],
  ["file:///var/state", "file:///var/state"],
  ["https://api.pulumi.com", "https://api.pulumi.com"],
])("a backend URL is named with its password redacted: %s", (url, shown) => {
  expect(redactBackendUrl(url)).toBe(shown);
});

test("the backend is the CLI's: PULUMI_BACKEND_URL, then the project's backend.url, then the stored login, then Pulumi Cloud", () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "drift-backend-"));
  try {
    const env = { PULUMI_HOME: home };
    expect(backendUrlOf(undefined, env)).toBe("https://api.pulumi.com");
    fs.writeFileSync(path.join(home, "credentials.json"), JSON.stringify({ current: "s3://login", accessTokens: {} }));
    expect(backendUrlOf(undefined, env)).toBe("s3://login");
    expect(backendUrlOf("file:///project", env)).toBe("file:///project");
    expect(backendUrlOf("file:///project", { ...env, PULUMI_BACKEND_URL: "postgres://env@h/db" })).toBe("postgres://env@h/db");
    expect(backendUrlOf(undefined, { PULUMI_HOME: path.join(home, "none"), PULUMI_CREDENTIALS_PATH: home })).toBe("s3://login");
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
});
