import { CODE, customerDetailCall, customerUpdateCall, MSG, savePhoneSettingCall } from '@dzy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, create, grantStaffEverything, newUscc, ZHANG } from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';

/** Issue 19 point 3: client contacts follow 号码显示设置 in the detail, and editing keeps the real numbers. */
let t: TestApp;
let admin: string;
let zhang: string;

beforeAll(async () => {
  t = await startTestApp();
  await grantStaffEverything(t);
  [admin, zhang] = await Promise.all([t.login(ADMIN), t.login(ZHANG)]);
}, 900_000);
afterAll(() => t.close());

type Contact = { name: string; position: string; mobile: string; landline: string; email: string; isPrimary: boolean };
type Detail = { qymc: string; qysh: string; contacts: Contact[] };

const detailOf = async (id: number, cookie: string) =>
  (await t.call<Detail>(customerDetailCall.path, { id }, cookie)).data;
const storedMobiles = async (id: number) =>
  (
    await t.ownerQuery<{ name: string; mobile: string }>(
      'select name, mobile from enterprise_contacts where enterprise_id = $1 order by id',
      [id],
    )
  ).map((r) => `${r.name}:${r.mobile}`);

describe('client contacts: masked by the phone setting, edits keep the stored number', () => {
  it('masks for a member not allowed, saves the masked value back as the stored number, takes a changed one', async () => {
    expect(
      (await t.call(savePhoneSettingCall.path, { staffPhone: 'admin', clientPhone: 'admin', userIds: [] }, admin)).code,
    ).toBe(CODE.OK);
    const made = await create(t, zhang, {
      qysh: newUscc(),
      contacts: [
        { name: '王五', mobile: '13912345678', isPrimary: true },
        { name: '赵六', mobile: '13698765432' },
      ],
    });
    expect(made.code).toBe(CODE.OK);
    const id = made.data.id;

    const seen = await detailOf(id, zhang);
    expect(seen.contacts.map((c) => c.mobile)).toEqual(['139****5678', '136****5432']);
    expect((await detailOf(id, admin)).contacts.map((c) => c.mobile)).toEqual(['13912345678', '13698765432']);

    // The form posts back what it was shown, with 赵六's number changed: 王五 keeps his real one.
    const shown = seen.contacts.map(({ name, position, mobile, landline, email, isPrimary }) => ({
      name,
      position,
      mobile,
      landline,
      email,
      isPrimary,
    }));
    const contacts = shown.map((c) => (c.name === '赵六' ? { ...c, mobile: '13511112222' } : c));
    const saved = await t.call(customerUpdateCall.path, { id, qymc: seen.qymc, qysh: seen.qysh, contacts }, zhang);
    expect([saved.code, saved.msg]).toEqual([CODE.OK, MSG.ok]);
    expect(await storedMobiles(id)).toEqual(['王五:13912345678', '赵六:13511112222']);

    // Renamed but the same masked number: still the one stored number of that shape.
    const renamed = contacts.map((c) => (c.name === '王五' ? { ...c, name: '王小五' } : c));
    expect(
      (await t.call(customerUpdateCall.path, { id, qymc: seen.qymc, qysh: seen.qysh, contacts: renamed }, zhang)).code,
    ).toBe(CODE.OK);
    expect(await storedMobiles(id)).toEqual(['王小五:13912345678', '赵六:13511112222']);

    // A masked value that stands for no stored number is refused, and nothing changes.
    const unknown = renamed.map((c) => (c.name === '赵六' ? { ...c, mobile: '135****0000' } : c));
    const refused = await t.call(
      customerUpdateCall.path,
      { id, qymc: seen.qymc, qysh: seen.qysh, contacts: unknown },
      zhang,
    );
    expect(refused.code).toBe(CODE.BAD_REQUEST);
    expect(refused.msg).toBe('联系人赵六：请填写完整的手机号');
    expect(await storedMobiles(id)).toEqual(['王小五:13912345678', '赵六:13511112222']);

    // A new client has no stored number for a masked one to stand for.
    const fresh = await create(t, zhang, { qysh: newUscc(), contacts: [{ name: '钱七', mobile: '139****5678' }] });
    expect(fresh.code).toBe(CODE.BAD_REQUEST);
    expect(fresh.msg).toBe('联系人钱七：请填写完整的手机号');
    // Other malformed numbers are still refused by the schema.
    const bad = await create(t, zhang, { qysh: newUscc(), contacts: [{ name: '孙八', mobile: '139**5678' }] });
    expect(bad.code).toBe(CODE.BAD_REQUEST);

    // With full numbers allowed again, the member sees them.
    await t.call(savePhoneSettingCall.path, { staffPhone: 'admin', clientPhone: 'all', userIds: [] }, admin);
    expect((await detailOf(id, zhang)).contacts.map((c) => c.mobile)).toEqual(['13912345678', '13511112222']);
  }, 180_000);
});
