import { JSONSchema } from '@mcpfusion/core';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** Input of `report.generate`. */
export class QuarterQuery {
  @JSONSchema({ description: 'Calendar year, e.g. 2025.' })
  @IsInt()
  @Min(2000)
  @Max(2100)
  year!: number;

  @JSONSchema({ description: 'Quarter of the year: 1 (Jan–Mar) to 4 (Oct–Dec).' })
  @IsInt()
  @Min(1)
  @Max(4)
  quarter!: number;
}

/** Input of `reports.rebuild`. */
export class RebuildOptions {
  @JSONSchema({ description: 'Pause between months in milliseconds, to leave the disk to other work (default 0).' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(1000)
  throttleMs?: number;
}
