import { FIXED_SOURCES } from "../rules.ts";
import { bodyBytes, type ObservedResponse, type Problem } from "./problem.ts";

/** R8: a success answer (2xx) carries no body. Undefined for other statuses. */
export function successBodyProblem(res: ObservedResponse): Problem | undefined {
  if (res.status < 200 || res.status > 299) return undefined;
  const bytes = bodyBytes(res.body);
  if (bytes === 0 && !res.truncated) return undefined;
  const received = res.truncated ? `more than ${bytes} bytes` : `${bytes} bytes`;
  return {
    rule: "R8",
    kind: "success-body",
    message: `R8: a ${res.status} success answer must carry no body, got ${received}`,
    source: FIXED_SOURCES.successBody,
    expected: "no body",
    received,
  };
}
