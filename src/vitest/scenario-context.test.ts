// The test context's named type (checked by tsc, which type-checks this file): a test body reads the scenario
// fixtures by name, a misspelled fixture is a type error, and fixtures.ts builds exactly these fixtures (its
// `scenarioTest` is annotated with ScenarioTestAPI, so a drift fails the typecheck there).
import { describe, expectTypeOf, test } from 'vitest'
import type { ScenarioApplication } from '../assistants/architectures/index.ts'
import type { scenarioTest } from './fixtures.ts'
import type { ScenarioFixtures, ScenarioTestAPI, ScenarioTestContext } from './scenario-context.ts'
import type { ScenarioRun } from './scenario-run.ts'
import type { ScenarioSuiteOptions } from './suite.ts'

describe('ScenarioTestContext', () => {
  test('names each fixture a test body uses', () => {
    expectTypeOf<ScenarioTestContext['liveSession']>().toEqualTypeOf<ScenarioRun>()
    expectTypeOf<ScenarioTestContext['toolState']>().toEqualTypeOf<ScenarioApplication>()
    expectTypeOf<ScenarioTestContext>().toHaveProperty('expect')
    expectTypeOf<keyof ScenarioFixtures>().toEqualTypeOf<
      | 'liveSession'
      | 'callerAudio'
      | 'toolState'
      | 'scenario'
      | 'architecture'
      | 'model'
      | 'assistant'
      | 'scenarioEnv'
    >()
  })

  test('is what scenarioSuite gives a custom body, and scenarioTest is typed by name', () => {
    expectTypeOf<
      Parameters<NonNullable<ScenarioSuiteOptions['test']>>[0]
    >().toEqualTypeOf<ScenarioTestContext>()
    expectTypeOf<ReturnType<typeof scenarioTest>>().toEqualTypeOf<ScenarioTestAPI>()
    const body: NonNullable<ScenarioSuiteOptions['test']> = (context) => {
      // @ts-expect-error a misspelled fixture is a type error
      void context.liveSesion
    }
    expectTypeOf(body).toBeFunction()
  })
})
