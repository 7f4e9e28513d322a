/**
 * Compile-time only: our schemas must accept what the official SDK's types describe, so a change in the
 * protocol's types fails `tsc` here instead of failing at run time against a real agent.
 */
import type * as sdk from '@agentclientprotocol/sdk';
import type * as unstable from '@agentclientprotocol/sdk/unstable';
import type { z } from 'zod';
import type * as ours from './client-requests';
import type * as results from './agent-results';
import type * as elicitation from './elicitation';
import type { sessionInfo } from './listed-sessions';
import type { SessionSupport } from './session-capabilities';
import type { SessionPlace } from '../session-requests';

type Accepts<Ours, Theirs> = [Theirs] extends [Ours] ? true : false;
type Check<T extends true> = T;
/** One entry of a request's `additionalDirectories` (the key must exist). */
type Directory<T extends { additionalDirectories?: unknown }> =
  NonNullable<T['additionalDirectories']> extends readonly (infer D)[] ? D : never;

export type SdkConformance = [
  Check<Accepts<z.input<typeof ours.readTextFileParams>, sdk.ReadTextFileRequest>>,
  Check<Accepts<z.input<typeof ours.writeTextFileParams>, sdk.WriteTextFileRequest>>,
  Check<Accepts<z.input<typeof ours.createTerminalParams>, sdk.CreateTerminalRequest>>,
  Check<Accepts<z.input<typeof ours.terminalRefParams>, sdk.TerminalOutputRequest>>,
  Check<Accepts<z.input<typeof ours.terminalRefParams>, sdk.KillTerminalRequest>>,
  Check<Accepts<z.input<typeof ours.requestPermissionParams>['options'][number], sdk.PermissionOption>>,
  Check<Accepts<z.input<typeof elicitation.completeElicitationParams>, sdk.CompleteElicitationNotification>>,
  Check<Accepts<z.input<typeof elicitation.requestedSchema>, sdk.ElicitationSchema>>,
  Check<Accepts<z.input<typeof results.initializeResult>['protocolVersion'], sdk.InitializeResponse['protocolVersion']>>,
  Check<Accepts<z.input<typeof results.newSessionResult>['sessionId'], sdk.NewSessionResponse['sessionId']>>,
  Check<Accepts<z.input<typeof results.promptResult>['stopReason'], sdk.PromptResponse['stopReason']>>,
  Check<Accepts<z.input<typeof results.sessionSetupResult>, sdk.LoadSessionResponse>>,
  Check<Accepts<z.input<typeof results.sessionSetupResult>, sdk.ResumeSessionResponse>>,
  Check<Accepts<z.input<typeof results.listSessionsResult>, sdk.ListSessionsResponse>>,
  Check<Accepts<z.input<typeof sessionInfo>, sdk.SessionInfo>>,
  Check<Accepts<z.input<typeof results.forkSessionResult>, unstable.ForkSessionResponse>>,
  Check<Accepts<z.input<typeof results.setSessionTitleResult>, unstable.SetSessionTitleResponse>>,
  // Every method SessionSupport names has its capability key in the unstable schema (`setTitle` is `title`).
  // What we send on session/new, load and resume is what the SDK's requests take.
  Check<Accepts<Directory<sdk.NewSessionRequest>, Directory<SessionPlace>>>,
  Check<Accepts<Directory<sdk.LoadSessionRequest>, Directory<SessionPlace>>>,
  Check<Accepts<Directory<sdk.ResumeSessionRequest>, Directory<SessionPlace>>>,
  Check<Accepts<keyof unstable.SessionCapabilities, Exclude<keyof SessionSupport, 'load' | 'setTitle'> | 'title'>>,
];
