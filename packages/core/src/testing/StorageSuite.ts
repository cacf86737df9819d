import { describe } from "@effect/vitest"
import { apiTokenContract } from "./suite/apiTokenContract.js"
import { emailListContract } from "./suite/emailListContract.js"
import type { MakeStorage } from "./suite/fixtures.js"
import { suppressionContract } from "./suite/suppressionContract.js"
import { templateContract } from "./suite/templateContract.js"
import { transactorContract } from "./suite/transactorContract.js"

export type { MakeStorage } from "./suite/fixtures.js"

/** The storage contract every store must pass; `makeStorage` builds a fresh, empty store per test. */
export const StorageSuite = (name: string, makeStorage: MakeStorage) =>
  describe(`${name} storage contract`, () => {
    templateContract(makeStorage)
    emailListContract(makeStorage)
    suppressionContract(makeStorage)
    apiTokenContract(makeStorage)
    transactorContract(makeStorage)
  })
