import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  COVERAGE_FILE,
  committedSpec,
  extractSpec,
  renderCoverage,
  SPEC_DIR,
  servedRoutes,
} from '../../../scripts/spec-coverage.js';

// docs/spec-coverage.md (issue 19): every call the spec names and what serves it. Regenerate with
// `npx tsx scripts/spec-coverage.ts` when a call is added, moved or given a reason. The spec sits outside the
// repository (../shared/spec); the calls read from it are kept in docs/spec-calls.json, which is checked
// against the spec wherever the spec is present, and the table against the routes everywhere.

describe('spec coverage', () => {
  it('reads the spec notations: full paths, lists after a prefix, "followed by:", versions, placeholders', () => {
    const calls = committedSpec().calls.map((c) => c.call);
    if (existsSync(SPEC_DIR)) expect(extractSpec()).toEqual(committedSpec());
    expect(calls).toEqual(
      expect.arrayContaining([
        'user/contract/temp/selectTemplatePage', // a full path
        'user/workorder/selectWorkOrderTemplateList', // "user/workorder/ followed by:"
        'user/fp/xxfp/updateDefSbById', // "user/fp/xxfp/ insertOrUpdateBatchFpxxfp, updateDefSbById"
        'user/note/getstaging', // "user/note/save, delete, …, getstaging"
        'wddb/determineGs', // "wddb: determineGs, …"
        'user/agency/checkPersonHasMenuAuthV2', // "checkPersonHasMenuAuth and V2"
        'updateJglxManageV143', // a bare name after a {token} placeholder
        'org/changeAdminInfo', // a name in parentheses "(then changeBusiOppFollowupBy and changeAdminInfo)"
        'helper: login_etax', // the helper program's own funcs
      ]),
    );
    expect(calls.filter((c) => /\{(token|hash)\}/.test(c))).toEqual([]);
    expect(calls).not.toContain('agencyId'); // fields in prose are not calls
  });

  it('docs/spec-coverage.md is current (npx tsx scripts/spec-coverage.ts)', async () => {
    expect(readFileSync(COVERAGE_FILE, 'utf8')).toBe(renderCoverage(await servedRoutes()));
  });
});
