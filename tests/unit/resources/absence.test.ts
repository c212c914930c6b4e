/**
 * What counts as "absent" (provider/resources/absence.ts): only a well-formed list that lacks
 * the object, or the API's own "not found"; everything else is unclear.
 */
import { NotFoundError, ServerError, ValidationError } from "../../../provider/api";
import { findInList, isEventNotFoundAnswer, isWellFormedNotFound, readOne } from "../../../provider/resources/absence";

const HTML_404 = "<html><head><title>404 Not Found</title></head><body><center><h1>404 Not Found</h1></center><hr><center>nginx</center></body></html>";

const notFound = (body: unknown, serverMessage: string, exceptionClass?: string) =>
  new NotFoundError({ method: "GET", path: "/cloud/v2/k8s/clusters/1/76/x", status: 404, serverMessage, body, exceptionClass, mayHaveActed: false });

describe("isWellFormedNotFound", () => {
  test("the cloud API's 404 body is a 'not found'", () => {
    expect(isWellFormedNotFound(notFound({ exception_class: "NotFoundError", message: "Cluster x could not be found" }, "Cluster x could not be found", "NotFoundError"))).toBe(true);
  });

  test.each([
    ["a proxy's HTML 404 page", notFound(HTML_404, HTML_404)],
    ["a 404 with an empty body", notFound(undefined, "")],
    ["a 404 whose JSON carries no message", notFound({}, "")],
  ])("%s proves nothing", (_label, err) => {
    expect(isWellFormedNotFound(err)).toBe(false);
  });

  test("other errors are not 'not found'", () => {
    expect(isWellFormedNotFound(new ServerError({ method: "GET", path: "/x", status: 502, serverMessage: "bad gateway", body: {}, mayHaveActed: true }))).toBe(false);
    expect(isWellFormedNotFound(new Error("404"))).toBe(false);
  });
});

describe("isEventNotFoundAnswer", () => {
  const storage400 = (body: unknown, serverMessage: string) =>
    new ValidationError({ method: "DELETE", path: "/storage/notifications/v1/event", status: 400, serverMessage, body, mayHaveActed: false });

  test("the storage API's 400 {error: 'event not found'} is a 'not found'", () => {
    expect(isEventNotFoundAnswer(storage400({ error: "event not found" }, "event not found"))).toBe(true);
  });

  test("an HTML 400 page that says 'not found' proves nothing, nor does another 400", () => {
    expect(isEventNotFoundAnswer(storage400("<html>400 Bad Request: page not found</html>", "<html>400 Bad Request: page not found</html>"))).toBe(false);
    expect(isEventNotFoundAnswer(storage400({ error: "bytes must be an integer" }, "bytes must be an integer"))).toBe(false);
  });
});

describe("findInList", () => {
  type Item = { id: string | null };
  const identified = (i: Item) => typeof i.id === "string" && i.id !== "";

  test("present, absent (a well-formed list lacking it), unclear (a failed read, an item without its id)", async () => {
    expect(await findInList<Item>(async () => [{ id: "a" }], identified, (i) => i.id === "a")).toEqual({ state: "present", value: { id: "a" } });
    expect(await findInList<Item>(async () => [{ id: "b" }], identified, (i) => i.id === "a")).toEqual({ state: "absent" });
    expect(await findInList<Item>(async () => [], identified, (i) => i.id === "a")).toEqual({ state: "absent" });
    const failure = new Error("GET /x returned 200 with an unexpected body");
    const failed = await findInList<Item>(async () => Promise.reject(failure), identified, () => true);
    expect(failed).toEqual({ state: "unclear", reason: "the list could not be read: GET /x returned 200 with an unexpected body", cause: failure });
    const anonymous = await findInList<Item>(async () => [{ id: "b" }, { id: null }], identified, (i) => i.id === "a");
    expect(anonymous).toMatchObject({ state: "unclear", reason: expect.stringContaining("1 item(s) without their identifying fields") });
  });
});

describe("readOne", () => {
  test("present when well-formed, absent on the API's 404, unclear on a malformed value, a proxy's 404 or any other failure", async () => {
    const ok = (v: { version: string }) => (v.version ? undefined : "no version");
    expect(await readOne(async () => ({ version: "v1" }), ok)).toEqual({ state: "present", value: { version: "v1" } });
    expect(await readOne(async () => Promise.reject(notFound({ message: "gone" }, "gone")), ok)).toEqual({ state: "absent" });
    expect(await readOne(async () => ({ version: "" }), ok)).toEqual({ state: "unclear", reason: "the answer is malformed: no version" });
    expect((await readOne(async () => Promise.reject(notFound(HTML_404, HTML_404)), ok)).state).toBe("unclear");
    expect((await readOne(async () => Promise.reject(new Error("socket hang up")), ok)).state).toBe("unclear");
  });
});
