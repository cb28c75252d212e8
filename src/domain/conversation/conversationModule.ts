/** The conversation module: Conversations and their Messages, posted and amended (§9). */

import { messagePost } from './messagePost.js';
import { messageCorrect } from './messageCorrect.js';
import { messageRetract } from './messageRetract.js';
import { messageRedact } from './messageRedact.js';
import { CONVERSATION_SLICE } from './conversationSlice.js';
import { defineModule } from '../kinds/domainModule.js';

export const CONVERSATION_MODULE = defineModule({
  key: 'conversation',
  slice: CONVERSATION_SLICE,
  kinds: [
    messagePost,
    messageCorrect,
    messageRetract,
    messageRedact,
  ],
});
