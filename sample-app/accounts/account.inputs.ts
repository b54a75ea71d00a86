import { JSONSchema } from '@mcpfusion/core';
import { IsEnum } from 'class-validator';
import { AccountProvider } from './account-provider';

/** Input of `account.connect`. */
export class ConnectRequest {
  @JSONSchema({ description: 'The provider whose account to connect.' })
  @IsEnum(AccountProvider)
  provider!: AccountProvider;
}
