/**
 * The loopback transit stand-in that most test stacks use as their secrets provider: what the
 * CLI's Vault client writes round-trips, and anything else is refused rather than guessed.
 */
import { answer } from "../../integration/testKeeper";

const encrypt = (plaintext: unknown) => answer("PUT", "/v1/transit/encrypt/cloudplatform-test", JSON.stringify({ plaintext }));
const decrypt = (ciphertext: unknown) => answer("PUT", "/v1/transit/decrypt/cloudplatform-test", JSON.stringify({ ciphertext }));

test("a data key wrapped by encrypt comes back from decrypt, behind Vault's prefix", () => {
  const key = Buffer.from("0123456789abcdef0123456789abcdef").toString("base64");
  const wrapped = encrypt(key);
  expect(wrapped.status).toBe(200);
  const ciphertext = (wrapped.body as { data: { ciphertext: string } }).data.ciphertext;
  expect(ciphertext).toMatch(/^vault:v1:/);
  expect(decrypt(ciphertext)).toEqual({ status: 200, body: { data: { plaintext: key } } });
});

test("another key name, path or method is a 404; a ciphertext without the prefix or a bad body a 400", () => {
  expect(answer("PUT", "/v1/transit/encrypt/other-key", JSON.stringify({ plaintext: "eA==" })).status).toBe(404);
  expect(answer("GET", "/v1/transit/decrypt/cloudplatform-test", "").status).toBe(404);
  expect(answer("PUT", "/v1/sys/health", "{}").status).toBe(404);
  expect(decrypt("eA==").status).toBe(400);
  expect(encrypt(42).status).toBe(400);
  expect(answer("POST", "/v1/transit/encrypt/cloudplatform-test", "not json").status).toBe(400);
});
