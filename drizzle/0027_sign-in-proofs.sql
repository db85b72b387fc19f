ALTER TABLE `activity` ADD `actor_name` text;--> statement-breakpoint
ALTER TABLE `sessions` ADD `proved_at` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `totp_pending_secret` text;--> statement-breakpoint
ALTER TABLE `users` ADD `reset_pending_at` integer;