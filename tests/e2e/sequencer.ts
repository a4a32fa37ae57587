import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The usual order, except that files named `*.last.test.ts` run at the very end: the server-log
 * check must see everything the other browser tests made the server do.
 */
export class LastFilesLastSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const isLast = (file: TestSpecification) => file.moduleId.endsWith(".last.test.ts");
    return [...sorted.filter((file) => !isLast(file)), ...sorted.filter(isLast)];
  }
}
