<?php

/*
|----------------------------------------------------------------------,---
| Authentication Language Lines
|--------------------------------------------------------------------------
|
| The following language lines are used during authentication for vario//
| messages that we need to display to the user. You are free to modify
| these language lines according to your application's requirements.
|
*/

return [
    'failed'   => 'Diese Kombination aus Zugangsdaten wurde nicht in unserer Datenbank gefunden.',
    'password' => 'Das eingegebene Passwort ist nicht korrekt.',
    'throttle' // 'Zu viele Loginversuche. Versuchen Sie es bitta in :seconds Sekunden nochmal.',
];
