import type { ErrorTranslation } from './error-translation.js';

/** The `errors` namespace in es: one text per {@link ErrorCode}, i18next `{{name}}` interpolation. */
export const errorsEs = {
  required: 'Este campo es obligatorio.',
  fieldRequired: '{{field}} es obligatorio.',
  currentPasswordRequired: 'La contraseña actual es obligatoria.',
  newPasswordRequired: 'La nueva contraseña es obligatoria.',
  passwordRequirements: 'La contraseña no cumple los requisitos.',
  passwordsMustMatch: 'Las contraseñas deben coincidir.',
  passwordTooShort: 'La contraseña debe tener al menos {{n}} caracteres.',
  passwordTooLong: 'La contraseña debe tener como máximo {{n}} caracteres.',
  passwordCharacterClasses:
    'Debe tener al menos una mayúscula, una minúscula, un número y un carácter especial.',
  passwordConsecutive: 'No debe contener más de {{n}} caracteres consecutivos.',
  passwordInvalidCharacters: 'No debe contener caracteres no válidos.',
  passwordCommon: 'Esta contraseña es demasiado común o ha aparecido en una filtración de datos. Elija otra.',
  passwordMustDiffer: 'La nueva contraseña debe ser distinta de la actual.',
  currentPasswordIncorrect: 'La contraseña actual no es correcta.',
  invalidEmail: 'Debe ser una dirección de correo electrónico válida.',
  emailRequired: 'El correo electrónico es un campo obligatorio.',
  invalidValue: 'Este valor no es válido.',
  validationProblem: 'Se produjeron uno o más errores de validación.',
  validationFailed: 'Se han producido uno o más errores de validación.',
  sessionTimedOut: 'Su sesión ha caducado. Inténtelo de nuevo.',
  deviceRegistrationError:
    'Se ha producido un problema al registrar su llave de acceso. Inténtelo de nuevo más tarde.',
  passwordExpired: 'Su contraseña ha caducado. Elija una nueva para continuar.',
  loggedOutInactivity: 'Se cerró su sesión tras un periodo de inactividad.',
  loggedOut: 'Ha cerrado la sesión.',
  capsLockOn: 'Bloq Mayús está activado',
  secureSignInFailed:
    'No hemos podido verificarle a usted o la llave de acceso que ha usado. Inténtelo de nuevo o inicie sesión con su nombre de usuario.',
  invalidCredentials: 'El nombre de usuario o la contraseña son incorrectos.',
  tooManyAttempts: 'Demasiados intentos. Espere un momento e inténtelo de nuevo.',
  accountDisabled: 'El nombre de usuario o la contraseña son incorrectos.',
  antiforgeryInvalid: 'No se ha podido verificar su solicitud. Recargue la página e inténtelo de nuevo.',
  invalidReturnUrl: 'La dirección de retorno no está permitida.',
  localLoginNotAllowed: 'Aquí no se permite iniciar sesión con contraseña.',
  notAuthenticated: 'Primero debe iniciar sesión.',
  stepNotAllowed: 'Este paso no está disponible ahora. Vuelva a iniciar sesión.',
  captchaRequired: 'Confirme que es una persona para continuar.',
  captchaInvalid: 'La comprobación no se ha superado. Inténtelo de nuevo.',
  invalidCode: 'El código no es válido o ha caducado. Compruébelo e inténtelo de nuevo.',
  reauthenticationRequired:
    'Por su seguridad, vuelva a iniciar sesión antes de cambiar la configuración de la verificación en dos pasos.',
  recentSignInRequired: 'Por su seguridad, vuelva a iniciar sesión para hacer este cambio.',
  secondFactorRequired:
    'La consola de administración requiere la verificación en dos pasos o una llave de acceso en su cuenta. Configure una de ellas en los ajustes de seguridad de su cuenta y vuelva a intentarlo.',
  confirmItsYouPasswordFirst: 'Primero introduzca su contraseña.',
  confirmItsYouCancelled: 'El cambio no se hizo porque no confirmó su identidad.',
  emailUnchanged: 'Esta ya es su dirección de correo electrónico.',
  emailNotAvailable: 'Esta dirección de correo electrónico no se puede usar. Elija otra.',
  emailChangeLinkInvalid:
    'Este enlace no es válido o ha caducado. Pida uno nuevo desde la página de su cuenta.',
  twoStepMethodExists:
    'Este método ya está configurado. Para usar uno nuevo en su lugar, elija reemplazarlo.',
  lastTwoStepMethodRequired:
    'Su cuenta requiere la verificación en dos pasos, por lo que no se puede quitar su último método. Añada otro método primero.',
  vendorCredentialsOnly:
    'Su cuenta inicia sesión a través del proveedor de su empresa. Su contraseña y su verificación en dos pasos se gestionan allí.',
  recoveryCodesUnavailable:
    'Estos códigos de recuperación ya se mostraron o han caducado. Genere un nuevo conjunto.',
  invalidPhoneNumber:
    'Introduzca el número de teléfono con el prefijo del país, por ejemplo +34 612 345 678.',
  codeNotSent: 'No pudimos enviar el código. Inténtelo de nuevo dentro de unos minutos.',
  oneTimeLinkInvalid:
    'Este enlace de inicio de sesión no es válido, ha caducado o ya se ha utilizado. Solicite un código nuevo.',
  oneTimeLinkOtherBrowser:
    'Este enlace de inicio de sesión solo funciona en el navegador en el que se solicitó el código. Ábralo allí o escriba allí el código.',
  badRequest: 'Solicitud incorrecta',
  unauthorized: 'No autorizado',
  forbidden: 'Prohibido',
  notFound: 'No encontrado',
  internalServerError: 'Error interno del servidor',
  badGateway: 'Puerta de enlace incorrecta',
  serviceUnavailable: 'Servicio no disponible',
  genericError: 'Error genérico',
  unexpectedError: 'Algo salió mal. Vuelva a intentarlo.',
  offline: 'No tiene conexión. Esto necesita una conexión de red.',
  releaseUnknownVersion: 'Este remoto no tiene ninguna versión publicada con ese nombre.',
  releaseIncompatible:
    '{{remote}} {{version}} requiere {{package}} {{required}}; el shell ofrece {{package}} {{provided}}.',
  releaseAlreadyActive: 'Esta versión ya es la activa.',
  releaseNoCanary: 'Este remoto no tiene ningún canary en curso.',
  releaseNoEarlierVersion: 'Este remoto no tiene ninguna versión anterior a la que volver.',
  // console grants (issue 52, ADR 0063)
  grantUnknownUser: 'Ninguna cuenta tiene este nombre de usuario.',
  grantUnknownPartner: 'No hay ningún socio con este identificador.',
  grantUnknownCustomer: 'No hay ningún cliente con este identificador.',
  grantGlobalRole: 'Este rol se aplica en todas partes: deje vacíos el socio y el cliente.',
  grantPartnerRequired: 'El soporte necesita el socio a cuyas personas ayuda.',
  grantSupportTakesNoCustomer: 'El soporte es para un socio entero: deje vacío el cliente.',
  grantCustomerRequired: 'Un administrador de cliente necesita el cliente que administra.',
  grantCustomerOfAnotherPartner: 'Este cliente pertenece a otro socio.',
  grantAlreadyGranted: 'Esta cuenta ya tiene este permiso.',
  grantNotGranted: 'Esta cuenta no tiene ese permiso.',
  grantLastPlatformAdmin: 'Es el último administrador de la plataforma: nombre antes a otro.',
  grantBeyondOwn: 'Solo puede otorgar lo que usted mismo tiene, donde lo tiene.',
  // partners and applications in the console (issue 52, ADR 0062)
  partnerLogoTooLarge: 'El logotipo debe ocupar como máximo {{max}} KB.',
  partnerLogoType: 'El logotipo debe ser una imagen PNG, JPEG, WebP o SVG.',
  partnerLogoScript:
    'Un logotipo SVG no debe contener scripts, controladores de eventos ni contenido incrustado.',
  partnerLanguageUntranslated: 'Las páginas de inicio de sesión no están traducidas a {{language}}.',
  partnerDefaultLanguageNotOffered: 'El idioma predeterminado debe ser uno de los idiomas ofrecidos.',
  partnerPasswordMinAboveMax: 'La longitud mínima ({{min}}) no puede superar la máxima ({{max}}).',
  partnerCaptchaNeedsKeys: 'reCAPTCHA necesita una clave de sitio y un secreto.',
  applicationExists: 'Ya existe una aplicación con este ID de cliente.',
  applicationRedirectUri: 'Introduce direcciones http(s) absolutas sin fragmento, una por línea.',
  upstreamDiscoveryFailed: 'No se pudo leer el documento de descubrimiento del proveedor: {{detail}}',
  upstreamRoles:
    'Un proveedor de un proveedor de servicios necesita al menos un rol de proveedor de servicios; un proveedor de inicio de sesión no tiene ninguno.',
  upstreamExists: 'Ya existe un proveedor con este ID.',
  upstreamTokenAuthMethod:
    'El proveedor no incluye {{method}} entre sus métodos de autenticación en el endpoint de tokens ({{supported}}).',
  upstreamSecretRequired: 'Introduzca el secreto del cliente: solo private_key_jwt funciona sin él.',
  // console audit search (issue 52, ADR 0063)
  auditToBeforeFrom: 'La fecha final no puede ser anterior a la inicial.',
  auditOtherPartner: 'Solo puede buscar los eventos de su propio socio.',
  // console bulk import, a bad row's reasons (issue 52, ADR 0063)
  importCsvUnclosedQuote: 'Fila {{row}}: un campo entre comillas no está cerrado.',
  importCsvTextAfterQuote: 'Fila {{row}}: hay texto después de unas comillas de cierre.',
  importCsvQuoteInField: 'Fila {{row}}: hay comillas dentro de un campo sin comillas.',
  importEmpty: 'El archivo está vacío: se necesita una fila de encabezado.',
  importNoRows: 'El archivo no tiene filas bajo su encabezado.',
  importUnknownColumn:
    'Fila {{row}}: columna «{{column}}» desconocida (las columnas son id, name, partner, username y roles).',
  importMissingColumn: 'Fila {{row}}: falta la columna «{{column}}».',
  importColumnTwice: 'Fila {{row}}: la columna «{{column}}» aparece dos veces.',
  importFieldCount: 'Fila {{row}}: {{count}} campos, pero el encabezado tiene {{expected}}.',
  importIdEmpty: 'Fila {{row}}: el id está vacío.',
  importIdTooLong: 'Fila {{row}}: el id tiene más de {{max}} caracteres.',
  importIdCharacters: 'Fila {{row}}: el id «{{id}}» contiene un espacio o un carácter de control.',
  importNameEmpty: 'Fila {{row}}: el nombre está vacío.',
  importNameTooLong: 'Fila {{row}}: el nombre tiene más de {{max}} caracteres.',
  importNameCharacters: 'Fila {{row}}: el nombre contiene un carácter de control.',
  importUnknownPartner: 'Fila {{row}}: no hay ningún socio «{{partner}}».',
  importUnknownUser: 'Fila {{row}}: no hay ningún usuario «{{username}}».',
  importRolesWithoutUser: 'Fila {{row}}: se indican roles sin nombre de usuario.',
  importUnknownRole:
    'Fila {{row}}: rol «{{role}}» desconocido (1–7, o EMPLOYEE, MANAGER, VENDOR_SUPPORT, VENDOR_OPERATIONS, VENDOR_PARTNER, ADMIN, HR_ADMIN).',
  importCustomerExists: 'Fila {{row}}: el cliente «{{id}}» ya existe.',
  importCustomerDiffers:
    'Fila {{row}}: el cliente «{{id}}» tiene otro nombre u otro socio en la fila {{earlier}}.',
  importMemberTwice: 'Fila {{row}}: «{{username}}» ya es miembro de «{{id}}» en una fila anterior.',
  importCustomerTwice: 'Fila {{row}}: el cliente «{{id}}» ya está en la fila {{earlier}}.',
} as const satisfies ErrorTranslation;
