import { describe, expect, it } from 'vitest';
import * as full from '../src/index.js';
import * as wire from '../src/wire.js';

// The schema-free calls the sign-in page uses must name the same paths as the contract's definitions.
describe('@dzy/shared/wire', () => {
  it('has the same paths and constants as the full contract', () => {
    for (const name of ['sessionCall', 'loginCall', 'logoutCall', 'saveUserCall', 'sendSmsCall'] as const) {
      expect(wire[name].path).toBe(full[name].path);
    }
    expect(wire.SMS_RESEND_SECONDS).toBe(full.SMS_RESEND_SECONDS);
    expect(wire.CODE).toBe(full.CODE);
    expect(wire.MSG).toBe(full.MSG);
  });

  it('says so when asked for schemas it does not carry', () => {
    expect(() => wire.loginCall.body).toThrow(/path only/);
  });
});
