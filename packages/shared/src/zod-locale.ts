import { z } from 'zod';

// Chinese default messages for every schema, on the server and in the browser alike.
z.config(z.locales.zhCN());
