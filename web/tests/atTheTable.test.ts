import { describe, expect, it } from "vitest";
import { clock } from "../src/components/AtTheTable";

describe("the clock's countdown text", () => {
  it("counts whole seconds up, as m:ss", () => {
    expect(clock(45_000, 0)).toBe("0:45");
    expect(clock(44_001, 0)).toBe("0:45");
    expect(clock(90_000, 0)).toBe("1:30");
    expect(clock(605_000, 0)).toBe("10:05");
  });

  it("never goes below 0:00", () => {
    expect(clock(1_000, 5_000)).toBe("0:00");
  });
});
